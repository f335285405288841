// null: completes every io at once with result = length and touches nothing. It measures the harness
// itself (the runner's cost per io), so it must stay this small. It is also the template for engines.
#include "engine/completion_ring.h"
#include "engine/engines.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

class NullEngine final : public Engine {
 public:
  std::string_view name() const noexcept override { return "null"; }
  EngineCaps caps() const noexcept override { return {.async = false, .needs_fd = false, .supports_trim = true}; }

  void open(const EngineSetup& setup) override { done_.reset(setup.depth); }

  int submit(std::span<IoUnit* const> batch) override {
    std::size_t n = batch.size() < done_.free() ? batch.size() : done_.free();
    for (std::size_t i = 0; i < n; ++i) {
      batch[i]->result = batch[i]->length;
      done_.push(batch[i]);
    }
    return static_cast<int>(n);
  }

  int reap(unsigned /*min_events*/, std::span<IoUnit*> out) override {
    return static_cast<int>(done_.pop_into(out));
  }

  void close() noexcept override {}

 private:
  detail::CompletionRing done_;
};

}  // namespace

bool NullPerform::is(const Engine& engine) noexcept { return dynamic_cast<const NullEngine*>(&engine) != nullptr; }

std::unique_ptr<Engine> make_null_engine() { return std::make_unique<NullEngine>(); }

}  // namespace sluice
