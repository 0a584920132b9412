package dashboard

import "comptoir/input"

// journalDevice is the journal's name among the table's devices (see
// package table): its status is the one device status every seat sees,
// for a step refused because the journal does not record concerns the
// players too.
const journalDevice = "journal"

// seatDevices is the devices' part of a seat's frame: the journal's
// status while it does not record, nothing otherwise (the table and the
// staff see every device).
func seatDevices(a audience, devices []input.DeviceStatus) []frameDevice {
	if a.role != roleSeat {
		return nil
	}
	for _, d := range devices {
		if d.Device == journalDevice && !d.OK {
			return []frameDevice{{Device: d.Device, OK: d.OK, Detail: d.Detail, FR: d.DetailFR}}
		}
	}
	return nil
}
