// engine_available(): can this engine start here? Only the runner and this probe make engines.
#include <exception>

#include "engine/engine.h"

namespace sluice {

bool engine_available(EngineKind kind) noexcept {
  if (!engine_traits(kind).may_be_refused) return true;
  try {
    auto engine = make_engine(kind);
    engine->open(EngineSetup{});
    engine->close();
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace sluice
