#include "capture/recorder.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace app {
namespace {

/// Whether `name` is an executable somewhere on PATH. popen() itself always "succeeds" (it
/// starts a shell), so a missing ffmpeg would otherwise only show up as exit code 127 at the end.
bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = dirs.substr(start, end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

/// Single-quotes `s` for /bin/sh (popen runs the command through the shell).
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// A new empty file for ffmpeg's messages. They go there rather than to our stderr so that a
/// failure (full disk, unwritable path) is reported as one line of ours that quotes ffmpeg's reason.
std::string make_log_file() {
  std::string path = (std::filesystem::temp_directory_path() / "clothsim-ffmpeg-XXXXXX").string();
  const int fd = ::mkstemp(path.data());
  if (fd < 0) throw std::runtime_error(std::string("cannot create a file for ffmpeg's messages: ") + std::strerror(errno));
  ::close(fd);
  return path;
}

/// The first non-blank line of the file at `path` (ffmpeg's first error is its reason), or "".
std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t begin = line.find_first_not_of(" \t\r");
    if (begin != std::string::npos) return line.substr(begin, line.find_last_not_of(" \t\r") + 1 - begin);
  }
  return "";
}

}  // namespace

std::string RecordingSummary::describe() const {
  if (frames == 0) return "recording stopped before its first frame: no video written";
  char line[512];
  std::snprintf(line, sizeof line, "wrote video %s (%d frames, %.1f s)", path.c_str(), frames, seconds);
  return line;
}

Recorder::~Recorder() {
  if (!active()) return;
  try {
    finish();
  } catch (const std::exception& e) {
    std::cerr << "clothsim: error: " << e.what() << "\n";
  }
}

void Recorder::start(const std::string& path, int width, int height, int fps) {
  if (active()) throw std::runtime_error("already recording to '" + path_ + "'");
  if (width <= 0 || height <= 0 || width % 2 != 0 || height % 2 != 0)
    throw std::runtime_error("video size must be even, got " + std::to_string(width) + "x" +
                             std::to_string(height));
  if (!on_path("ffmpeg"))
    throw std::runtime_error("recording needs ffmpeg on PATH (Debian: apt-get install ffmpeg)");
  if (!on_path("setsid"))
    throw std::runtime_error("recording needs setsid on PATH (Debian: util-linux)");
  // If ffmpeg dies (bad path, full disk) our next write would raise SIGPIPE and kill the app
  // without a word; ignoring it turns that into a failed fwrite we can report.
  std::signal(SIGPIPE, SIG_IGN);
  // setsid: in a session of its own, ffmpeg does not get the terminal's Ctrl-C (SIGINT goes to the
  // whole foreground process group) and dies mid-file; we get it, stop feeding frames and close
  // the pipe, and ffmpeg writes a complete mp4. `exec` makes popen's shell become setsid, which (not
  // a process-group leader) then execs ffmpeg in place: no process of the pipeline is left in our
  // group to die of the Ctrl-C, and pclose waits for ffmpeg itself. (A waiting shell or `setsid -w`
  // parent would be killed by it and report exit 130.)
  const std::string log = make_log_file();
  const std::string cmd = "exec setsid ffmpeg -y -loglevel error -f rawvideo -pix_fmt rgb24 -s " +
                          std::to_string(width) + "x" + std::to_string(height) + " -r " +
                          std::to_string(fps) + " -i - -c:v libx264 -pix_fmt yuv420p " +
                          shell_quote(path) + " 2>" + shell_quote(log);
  pipe_ = ::popen(cmd.c_str(), "w");
  if (pipe_ == nullptr) {
    std::filesystem::remove(log);
    throw std::runtime_error("cannot start ffmpeg for '" + path + "'");
  }
  log_path_ = log;
  path_ = path;
  width_ = width;
  height_ = height;
  fps_ = fps;
  frames_ = 0;
}

void Recorder::add_frame(const std::vector<std::uint8_t>& rgb) {
  if (!active()) return;
  const size_t bytes = size_t(width_) * size_t(height_) * 3;
  if (rgb.size() != bytes) throw std::runtime_error("video frame has the wrong size");
  // A short write is ffmpeg gone (EPIPE: SIGPIPE is ignored, see start), typically because it
  // could not write the video (ENOSPC). Its exit status and message say why.
  if (std::fwrite(rgb.data(), 1, bytes, pipe_) != bytes) {
    const int write_error = errno;
    std::string error = close_pipe();
    if (error.empty()) {
      error = "cannot send frames to ffmpeg writing '" + path_ + "': " + std::strerror(write_error);
    }
    throw std::runtime_error(error);
  }
  ++frames_;
}

RecordingSummary Recorder::finish() {
  if (!active()) throw std::runtime_error("not recording");
  // A full disk may show only now, when ffmpeg writes the rest of the file and its index.
  const std::string error = close_pipe();
  if (frames_ == 0) {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);  // ffmpeg's header-only file, or nothing
    return RecordingSummary{path_, 0, 0.0};
  }
  if (!error.empty()) throw std::runtime_error(error);
  return RecordingSummary{path_, frames_, double(frames_) / double(fps_)};
}

std::string Recorder::close_pipe() {
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  const std::string said = first_line(log_path_);
  std::error_code ignored;
  std::filesystem::remove(log_path_, ignored);
  log_path_.clear();
  if (status == -1) return "cannot wait for ffmpeg writing '" + path_ + "'";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return "ffmpeg failed (exit " + std::to_string(code) + ") writing '" + path_ + "'" +
         (said.empty() ? "" : ": " + said);
}

}  // namespace app
