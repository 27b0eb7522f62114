// The step worker runs a job on its own thread: the giver's wait ends when the job does (not
// before), the job's writes are seen after finish(), and what it throws comes back there.
// Inline (a build without threads), the job runs within start() on the giver's thread.
#include <gtest/gtest.h>

#include <future>
#include <stdexcept>
#include <thread>

#include "run/step_worker.hpp"

namespace app {
namespace {

TEST(StepWorker, AWaitEndsWhenTheJobDoesNotBefore) {
  StepWorker worker;
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  int steps = 0;
  worker.start([&] {
    gate.wait();
    steps = 3;
  });
  EXPECT_TRUE(worker.started());
  EXPECT_FALSE(worker.wait_for(0.05));  // held at the gate: the window would draw meanwhile
  release.set_value();
  EXPECT_TRUE(worker.wait_for(10.0));
  worker.finish();
  EXPECT_FALSE(worker.started());
  EXPECT_EQ(steps, 3);
}

TEST(StepWorker, WithNoJobThereIsNothingToWaitFor) {
  StepWorker worker;
  EXPECT_FALSE(worker.started());
  EXPECT_TRUE(worker.wait_for(0));
}

TEST(StepWorker, RunsJobAfterJobOnOneThread) {
  StepWorker worker;
  std::thread::id first, second;
  worker.start([&] { first = std::this_thread::get_id(); });
  worker.finish();
  worker.start([&] { second = std::this_thread::get_id(); });
  worker.finish();
  EXPECT_EQ(first, second);  // one thread: the engine's thread pools are not made again per step
  EXPECT_NE(first, std::this_thread::get_id());
}

TEST(StepWorker, WhatTheJobThrowsComesBackAtFinish) {
  StepWorker worker;
  worker.start([] { throw std::runtime_error("a step failed"); });
  EXPECT_THROW(worker.finish(), std::runtime_error);
  EXPECT_FALSE(worker.started());  // finished, though by a throw
  int after = 0;  // and the worker goes on working
  worker.start([&] { after = 1; });
  worker.finish();
  EXPECT_EQ(after, 1);
}

TEST(StepWorker, DestroyingWaitsForTheRunningJob) {
  int steps = 0;
  {
    StepWorker worker;
    worker.start([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      steps = 1;
    });
  }
  EXPECT_EQ(steps, 1);
}

TEST(StepWorker, InlineRunsTheJobWithinStartOnTheGiversThread) {
  StepWorker worker(StepWorker::Threading::Inline);
  std::thread::id ran_on;
  worker.start([&] { ran_on = std::this_thread::get_id(); });
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  EXPECT_TRUE(worker.started());  // until finish() hands the data back, as threaded
  EXPECT_TRUE(worker.wait_for(0));
  worker.finish();
  EXPECT_FALSE(worker.started());
  worker.start([] { throw std::runtime_error("a step failed"); });
  EXPECT_THROW(worker.finish(), std::runtime_error);
}

}  // namespace
}  // namespace app
