#pragma once
// One thread that runs the panes' steps for the window, so that a step slower than a frame does
// not stop the window: the main loop hands it a job, waits a short while for it (a fast step
// ends within the wait and the frame goes on as if it had run inline), and otherwise keeps
// drawing and answering input until it ends (pane_runner.hpp, kStepWait). One job at a time. While a
// job runs, the thread that gave it must not touch what the job touches (the panes'
// simulations, replay buffers and the frame exports); finish() hands them back.
// Inline, for a build without threads (the browser's): start() runs the job at once, so it has
// always ended when start() returns.
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace app {

class StepWorker {
 public:
  enum class Threading { Worker, Inline };

  explicit StepWorker(Threading threading = Threading::Worker);
  /// Waits for a running job to end (however long: a step cannot be stopped halfway), then
  /// stops the thread.
  ~StepWorker();
  StepWorker(const StepWorker&) = delete;
  StepWorker& operator=(const StepWorker&) = delete;

  /// Starts `job` on the worker thread. Precondition: no job is running or unfinished.
  void start(std::function<void()> job);
  /// Whether a job was started and not yet finished().
  bool started() const { return started_; }
  /// Waits up to `seconds` for the job to end; true when it has (or none was started).
  bool wait_for(double seconds);
  /// Waits for the job to end and hands its data back: rethrows what the job threw.
  void finish();

 private:
  void loop();
  /// Runs `job`, keeping what it throws for finish().
  void run(std::function<void()> job);

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::function<void()> job_;  ///< the job to run, empty once taken
  bool running_ = false;       ///< a job is queued or running
  bool quit_ = false;
  bool started_ = false;       ///< read and written by the giving thread only
  std::exception_ptr error_;
  std::thread thread_;  // declared last: started after the members it uses exist; none inline
};

}  // namespace app
