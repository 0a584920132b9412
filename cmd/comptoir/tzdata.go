package main

// The time zones' database, built in: a table's timezone: is found even
// on a system without /usr/share/zoneinfo.
import _ "time/tzdata"
