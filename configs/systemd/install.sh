#!/bin/sh
# Installs a Comptoir table as a systemd service: the programs (comptoird,
# the daemon; comptoir-dice, which reads the dice for it; comptoir, the
# command line of the staff and the installer), the
# unit, a "comptoir" system user in the device groups, its state folder,
# and a table configuration to edit (never overwritten).
#
# Usage, as root, from a checkout where the programs are built (make
# build, or go build -o bin/ ./cmd/comptoir ./cmd/comptoird ./cmd/comptoir-dice):
#
#   configs/systemd/install.sh [BINDIR]
#
# Environment: DESTDIR (a staging root, for packaging or a test: no user
# is created and systemd is not told), PREFIX (default /usr/local),
# BINDIR (default bin: where the built programs are).
set -eu

BINDIR=${1:-${BINDIR:-bin}}
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
SRC=$(cd "$(dirname "$0")/../.." && pwd)

for p in comptoird comptoir comptoir-dice; do
	if [ ! -x "$BINDIR/$p" ]; then
		echo "install.sh: $BINDIR/$p is not built: run make build (comptoir and comptoir-dice need libopencv-dev)" >&2
		exit 1
	fi
done
if [ -z "$DESTDIR" ] && [ "$(id -u)" != 0 ]; then
	echo "install.sh: run it as root (sudo make install)" >&2
	exit 1
fi

install -d "$DESTDIR$PREFIX/bin" "$DESTDIR/etc/systemd/system" "$DESTDIR/etc/comptoir" "$DESTDIR$PREFIX/share/doc/comptoir"
install -m 0755 "$BINDIR/comptoird" "$BINDIR/comptoir" "$BINDIR/comptoir-dice" "$DESTDIR$PREFIX/bin/"
sed "s#/usr/local/#$PREFIX/#g" "$SRC/configs/systemd/comptoird.service" >"$DESTDIR/etc/systemd/system/comptoird.service"
chmod 0644 "$DESTDIR/etc/systemd/system/comptoird.service"
install -m 0644 "$SRC/README.md" "$DESTDIR$PREFIX/share/doc/comptoir/README.md"
if [ -e "$DESTDIR/etc/comptoir/table.yaml" ]; then
	echo "kept /etc/comptoir/table.yaml (yours)"
else
	install -m 0640 "$SRC/configs/tables/example-pi.yaml" "$DESTDIR/etc/comptoir/table.yaml"
	echo "wrote /etc/comptoir/table.yaml from configs/tables/example-pi.yaml: edit it"
fi

if [ -n "$DESTDIR" ]; then
	echo "installed under $DESTDIR (no user, no systemctl)"
	exit 0
fi

# The service's user, in the groups that own the devices (those that
# exist here: gpio, spi, i2c on Raspberry Pi OS; video everywhere).
groups=""
for g in gpio spi i2c video; do
	if getent group "$g" >/dev/null; then groups="$groups${groups:+,}$g"; fi
done
if id comptoir >/dev/null 2>&1; then
	[ -z "$groups" ] || usermod -a -G "$groups" comptoir
else
	useradd --system --user-group --home-dir /var/lib/comptoir --no-create-home --shell /usr/sbin/nologin ${groups:+--groups "$groups"} comptoir
fi
install -d -o comptoir -g comptoir -m 0750 /var/lib/comptoir
chgrp comptoir /etc/comptoir/table.yaml
echo "user comptoir in groups: ${groups:-none}"

if [ -d /run/systemd/system ]; then
	systemctl daemon-reload
	echo "next: edit /etc/comptoir/table.yaml, check it with"
	echo "  sudo -u comptoir $PREFIX/bin/comptoir check /etc/comptoir/table.yaml"
	echo "then: sudo systemctl enable --now comptoird"
else
	echo "systemd is not running here: the unit is installed, not enabled"
fi
