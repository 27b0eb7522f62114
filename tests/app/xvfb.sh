# Sourced by the app tests: start_private_xvfb starts an X server of the test's own in the
# background and exports DISPLAY. -displayfd lets Xvfb pick a free display number itself (no race
# with other tests that also look for one) and tell us which. Needs $tmp (a scratch folder) and a
# fail function of the caller; sets xvfb_pid for the caller's cleanup.
start_private_xvfb() {
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
  xvfb_pid=$!
  for _ in $(seq 100); do
    [ -s "$tmp/display" ] && break
    kill -0 "$xvfb_pid" 2>/dev/null || fail "Xvfb did not start: $(cat "$tmp/xvfb.log")"
    sleep 0.1
  done
  [ -s "$tmp/display" ] || fail "Xvfb did not report a display"
  export DISPLAY=":$(head -n1 "$tmp/display")"
}
