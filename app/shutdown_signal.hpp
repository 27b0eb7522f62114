#pragma once
// SIGINT / SIGTERM end clothsim the way closing its window does: the handler only records the
// signal (nothing else is async-signal-safe), and the main loops of app.cpp and headless.cpp check
// it once per frame and finish cleanly, so an open recording still gets a valid mp4 trailer.
namespace app {

/// Installs the handlers. Each fires once: a second Ctrl-C while shutting down kills at once.
void install_shutdown_handlers();

/// The signal that asked clothsim to stop, or 0 if none has.
int shutdown_signal();

/// The conventional exit status after stopping for `signal`: 128 + its number.
inline int exit_status_for_signal(int signal) { return 128 + signal; }

}  // namespace app
