#pragma once
// Video recording: raw RGB frames piped into ffmpeg, which encodes H.264 (yuv420p, so every
// player can show it). One class for the headless runner and the interactive app.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace app {

struct RecordingSummary {
  std::string path;
  int frames = 0;
  double seconds = 0;  ///< frames / fps, s
  /// One line for the user: "wrote video PATH (N frames, S s)", or, when the recording stopped
  /// before its first frame, that no video was written.
  std::string describe() const;
};

class Recorder {
 public:
  Recorder() = default;
  /// Finishes an open recording; errors are printed, not thrown (destructors must not throw).
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Starts ffmpeg writing `path`. width and height must be even (yuv420p halves chroma).
  /// Throws std::runtime_error if ffmpeg is not on PATH or cannot be started.
  void start(const std::string& path, int width, int height, int fps = 60);
  /// Appends one frame of width*height*3 bytes, top row first. Throws if ffmpeg has gone away
  /// (e.g. the disk is full), with ffmpeg's reason in one line; the recording is then over.
  void add_frame(const std::vector<std::uint8_t>& rgb);
  /// Closes the pipe and waits for ffmpeg; throws, with ffmpeg's reason in one line, if it failed.
  /// A recording stopped before its first frame (V pressed twice within a frame, a signal right
  /// after the start) is not a playable mp4: its file is removed (soak test, app_soak).
  RecordingSummary finish();

  bool active() const { return pipe_ != nullptr; }
  int width() const { return width_; }
  int height() const { return height_; }
  int frames() const { return frames_; }
  int fps() const { return fps_; }
  double seconds() const { return fps_ > 0 ? double(frames_) / fps_ : 0.0; }  ///< video length so far, s
  const std::string& path() const { return path_; }

 private:
  /// Closes the pipe and waits for ffmpeg; "" if it succeeded, else why not (one line).
  std::string close_pipe();

  std::FILE* pipe_ = nullptr;
  std::string log_path_;  ///< ffmpeg's stderr, a temporary file removed when it ends
  std::string path_;
  int width_ = 0, height_ = 0, fps_ = 60, frames_ = 0;
};

/// Largest even number <= n (at least 2): H.264 in yuv420p needs even frame sizes.
inline int even_floor(int n) {
  return n < 2 ? 2 : n & ~1;
}

}  // namespace app
