// null: completes every io at once with result = length and touches nothing. It measures the harness
// itself (the runner's cost per io), so it must stay this small. It is also the template for engines.
#include "engine/engines.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

class NullEngine final : public detail::SynchronousEngine<NullEngine> {
  friend class detail::SynchronousEngine<NullEngine>;

 public:
  std::string_view name() const noexcept override { return engine_name(EngineKind::kNull); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kNull); }

  void open(const EngineSetup& setup) override { reset_completions(setup.depth); }
  void close() noexcept override {}

 private:
  static std::int64_t perform(const IoUnit& u) noexcept { return u.length; }
};

}  // namespace

bool NullPerform::is(const Engine& engine) noexcept { return dynamic_cast<const NullEngine*>(&engine) != nullptr; }

std::unique_ptr<Engine> make_null_engine() { return std::make_unique<NullEngine>(); }

}  // namespace sluice
