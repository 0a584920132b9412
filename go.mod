module comptoir

go 1.26.8
