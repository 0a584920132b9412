package cafe

import "time"

// StaffCall tells when the table's open call for staff was raised and
// when the floor answered it; zero times when there is none or no answer
// yet. With CallStaff it makes the Publisher the dashboard's
// dashboard.StaffCaller: the call button is on the dashboard's pages (the
// table's screen and every seated phone), behind its Origin check.
func (p *Publisher) StaffCall() (called, answered time.Time) {
	pr := p.Presence()
	return pr.StaffCall, pr.Answered
}
