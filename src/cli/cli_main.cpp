#include "cli/cli_main.h"

#include <cstdio>

namespace sluice {
int cli_main(int, char**) {
  std::fputs("sluice: not yet\n", stderr);
  return 1;
}
}  // namespace sluice
