#include "run/step_worker.hpp"

#include <cassert>
#include <chrono>
#include <utility>

namespace app {

StepWorker::StepWorker(Threading threading) {
  if (threading == Threading::Worker) thread_ = std::thread([this] { loop(); });
}

StepWorker::~StepWorker() {
  if (!thread_.joinable()) return;
  {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return !running_; });
    quit_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void StepWorker::start(std::function<void()> job) {
  assert(!started_ && "finish() the running job first");
  {
    std::lock_guard lock(mutex_);
    job_ = std::move(job);
    running_ = true;
    error_ = nullptr;
  }
  started_ = true;
  if (!thread_.joinable()) {
    run(std::exchange(job_, nullptr));
    return;
  }
  wake_.notify_one();
}

bool StepWorker::wait_for(double seconds) {
  std::unique_lock lock(mutex_);
  return done_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return !running_; });
}

void StepWorker::finish() {
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return !running_; });
    error = std::exchange(error_, nullptr);
  }
  started_ = false;
  if (error) std::rethrow_exception(error);
}

void StepWorker::loop() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return quit_ || job_; });
      if (quit_) return;
      job = std::exchange(job_, nullptr);
    }
    run(std::move(job));
  }
}

void StepWorker::run(std::function<void()> job) {
  std::exception_ptr error;
  try {
    job();
  } catch (...) {
    error = std::current_exception();
  }
  job = nullptr;  // what it holds goes before the giver is told: it may start the next job at once
  {
    std::lock_guard lock(mutex_);
    error_ = error;
    running_ = false;
  }
  done_.notify_all();
}

}  // namespace app
