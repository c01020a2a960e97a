// One thread pool for reading and writing: jobs run on worker threads and their results come
// back in the order the jobs were submitted (blocks are written and exported in order).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace pgnarc::common {

template <typename T>
class OrderedPool {
 public:
  // `threads` workers; with 0, each job runs inside submit() on the calling thread.
  // A thread that cannot be started throws std::system_error, the ones started stopped first.
  explicit OrderedPool(unsigned threads) {
    try {
      for (unsigned t = 0; t < threads; ++t) workers_.emplace_back([this] { work(); });
    } catch (...) {
      stop();
      throw;
    }
  }
  // Stops the workers (jobs not started are dropped) and joins them, however the owner ends.
  ~OrderedPool() { stop(); }
  OrderedPool(const OrderedPool&) = delete;
  OrderedPool& operator=(const OrderedPool&) = delete;

  // Jobs submitted and not yet taken by next().
  std::size_t pending() const { return results_.size(); }

  void submit(std::function<T()> job) {
    if (workers_.empty()) {
      Slot slot;
      run(job, slot);
      results_.push_back(std::move(slot));
      return;
    }
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(Job{std::move(job), submitted_});
      try {
        results_.emplace_back();
      } catch (...) {  // no slot without its job, or next() would wait for it forever
        jobs_.pop_back();
        throw;
      }
      ++submitted_;
    }
    wake_workers_.notify_one();
  }

  // The result of the oldest job not yet taken (there must be one), waiting for it; an
  // exception the job threw is rethrown here.
  T next() {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return results_.front().ready; });
    Slot slot = std::move(results_.front());
    results_.pop_front();
    ++taken_;
    lock.unlock();
    if (slot.thrown) std::rethrow_exception(slot.thrown);
    return std::move(*slot.value);
  }

 private:
  struct Job {
    std::function<T()> run;
    std::uint64_t number;
  };
  struct Slot {
    bool ready = false;
    std::optional<T> value;
    std::exception_ptr thrown;
  };

  void stop() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_workers_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  static void run(const std::function<T()>& job, Slot& slot) {
    try {
      slot.value.emplace(job());
    } catch (...) {  // out of memory, say: the owner sees it, not std::terminate
      slot.thrown = std::current_exception();
    }
    slot.ready = true;
  }

  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_workers_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
      if (stop_) return;
      Job job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      Slot slot;
      run(job.run, slot);
      lock.lock();
      results_[static_cast<std::size_t>(job.number - taken_)] = std::move(slot);
      done_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_workers_, done_;
  std::deque<Job> jobs_;
  std::deque<Slot> results_;  // one per job not yet taken, in submission order
  std::uint64_t submitted_ = 0, taken_ = 0;
  bool stop_ = false;
};

}  // namespace pgnarc::common
