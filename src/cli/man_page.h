#pragma once
// Man pages generated from the command tables (sluice help --man=DIR, run by the build): sluice(1) and
// sluice-COMMAND(1) for every command, from the same declarations as --help, so they cannot disagree with it.
#include <string>
#include <vector>

namespace sluice {

struct ManPage {
  std::string file;  // "sluice-quick.1"
  std::string text;  // roff (man(7) macros)
};

// sluice.1 first, then one page per command of the registry, in its order.
std::vector<ManPage> render_man_pages();

// Writes render_man_pages() into `dir` (created when missing); returns the paths written. Throws UserError when
// a page cannot be written.
std::vector<std::string> write_man_pages(const std::string& dir);

}  // namespace sluice
