# Sourced by make-model.sh and make-pose.sh: a signal to the script, or
# a failure, stops every process it started. Bash runs a trap only once
# the command in the foreground has ended, so that the long steps are
# run in the background and waited for (run): the wait ends at once on
# a signal. Processes started in the background by a script ignore
# Ctrl-C (SIGINT): the trap stops them.

# killtree PID: stop PID and every process under it; the process is
# stopped first, so that it starts no other while its own are killed
killtree() {
	local c
	kill -STOP "$1" 2>/dev/null || true
	for c in $(pgrep -P "$1"); do killtree "$c"; done
	kill "$1" 2>/dev/null || true
	kill -CONT "$1" 2>/dev/null || true
}

# stop_children: killtree every process this script started
stop_children() {
	local c cs
	cs=$(pgrep -P $$) || true
	for c in $cs; do killtree "$c"; done
}

# run CMD...: run a step and wait for it (its status is the step's)
run() {
	"$@" &
	wait $!
}

# on exit (a failure, or a signal), nothing is left running; a second
# signal during that cleanup is ignored, so that no process is left
# stopped
trap 'trap "" INT TERM; stop_children' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
