#pragma once
// fio's --inflate-log: prints a compressed log (log_store_compressed, NAME.log.fz: zlib streams of fio's binary
// samples, as LogFile writes them and fio 3.33 stores them) as the text lines fio would have written.
#include <cstdio>
#include <string>

namespace sluice {

// Writes the text lines of the compressed log at `path` to `out`. Throws UserError naming the file when it
// cannot be read, is not zlib data, or holds a partial sample.
void inflate_fio_log(const std::string& path, std::FILE* out);

}  // namespace sluice
