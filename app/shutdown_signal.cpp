#include "shutdown_signal.hpp"

#include <csignal>

namespace app {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void record_signal(int signal) { g_signal = signal; }

}  // namespace

void install_shutdown_handlers() {
  struct sigaction action = {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: a frame's blocking calls (the pipe to ffmpeg, the frame-cap sleep) carry on
  // instead of failing with EINTR; the loop sees the flag at the end of the frame.
  action.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int shutdown_signal() { return g_signal; }

}  // namespace app
