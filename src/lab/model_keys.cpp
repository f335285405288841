#include "lab/model_keys.h"

#include <array>
#include <utility>

namespace sluice {
namespace {

using Draft = ModelDraft;
using Value = ModelValue;

// A choice key's words, each with the value it stands for: the key's choices and its apply both read this one
// list, so a word and its value cannot drift apart (as a word list and an enum's order would).
template <typename T>
using Words = std::array<std::pair<std::string_view, T>, 3>;

constexpr Words<WriteCacheMode> kWriteCacheModes{{{"none", WriteCacheMode::kNone},
                                                  {"write-through", WriteCacheMode::kWriteThrough},
                                                  {"write-back", WriteCacheMode::kWriteBack}}};
constexpr Words<JitterKind> kJitterKinds{
    {{"none", JitterKind::kNone}, {"uniform", JitterKind::kUniform}, {"exponential", JitterKind::kExponential}}};

template <typename T>
std::vector<std::string_view> words_of(const Words<T>& words) {
  std::vector<std::string_view> out;
  for (const auto& word : words) out.push_back(word.first);
  return out;
}

std::vector<ModelKey> make_model_keys() {
  using T = ModelValueType;
  return {
      {"description",
       T::kText,
       "",
       {},
       "one line saying what the model imitates (sluice lab models lists it)",
       [](Draft& d, const Value& v) { d.spec.description = v.text; }},
      {"validity",
       T::kText,
       "",
       {},
       "what the lab serves faithfully of this model, and what it does not",
       [](Draft& d, const Value& v) { d.spec.validity = v.text; }},
      {"size",
       T::kSize,
       "4g",
       {},
       "the device's default size; seek distances and a cliff given as a multiple scale by it",
       [](Draft& d, const Value& v) { d.spec.size_bytes = v.number; }},
      {"servers",
       T::kCount,
       "1",
       {},
       "requests the device serves at once (an SSD's channels, an array's disks)",
       [](Draft& d, const Value& v) { d.spec.servers = static_cast<std::uint32_t>(v.number); }},
      {"read_time",
       T::kDuration,
       "",
       {},
       "required: the fixed time of a read at a server",
       [](Draft& d, const Value& v) { d.spec.read_time = v.duration; }},
      {"write_time",
       T::kDuration,
       "read_time",
       {},
       "the fixed time of a write to the media at a server",
       [](Draft& d, const Value& v) { d.spec.write_time = v.duration; }},
      {"transfer_rate",
       T::kRate,
       "none",
       {},
       "how fast one server moves data: each byte costs 1/rate more",
       [](Draft& d, const Value& v) { d.spec.transfer_bytes_per_s = v.real; }},
      {"bandwidth",
       T::kRate,
       "none",
       {},
       "the whole device's throughput cap (a link, a controller)",
       [](Draft& d, const Value& v) { d.spec.bandwidth_bytes_per_s = v.real; }},
      {"rpm",
       T::kCount,
       "0",
       {},
       "rotating media: the spindle speed; a random request waits half a turn on average",
       [](Draft& d, const Value& v) { d.spec.rpm = static_cast<std::uint32_t>(v.number); }},
      {"seek_track",
       T::kDuration,
       "0",
       {},
       "rotating media: the shortest seek (to the next track)",
       [](Draft& d, const Value& v) { d.spec.seek_track = v.duration; }},
      {"seek_full",
       T::kDuration,
       "0",
       {},
       "rotating media: a full-stroke seek; a seek over distance x takes seek_track + (seek_full - seek_track) * "
       "sqrt(x / size)",
       [](Draft& d, const Value& v) { d.spec.seek_full = v.duration; }},
      {"write_cache", T::kChoice, "none", words_of(kWriteCacheModes),
       "write-through: a write is acknowledged once on the media; write-back: once in the cache, which drains "
       "at destage_rate",
       [](Draft& d, const Value& v) { d.spec.write_cache = kWriteCacheModes.at(v.choice).second; }},
      {"cache_size",
       T::kSize,
       "0",
       {},
       "write-back: the cache's size; a write waits for room once it is full",
       [](Draft& d, const Value& v) { d.spec.cache_size_bytes = v.number; }},
      {"cache_write_time",
       T::kDuration,
       "0",
       {},
       "write-back: the fixed time of a write taken into the cache",
       [](Draft& d, const Value& v) { d.spec.cache_write_time = v.duration; }},
      {"destage_rate",
       T::kRate,
       "",
       {},
       "write-back: how fast the cache drains to the media (required with write-back)",
       [](Draft& d, const Value& v) { d.spec.destage_bytes_per_s = v.real; }},
      {"flush_time",
       T::kDuration,
       "0",
       {},
       "the cost of a flush (fsync) itself; a volatile write-back cache also destages what it holds first",
       [](Draft& d, const Value& v) { d.spec.flush_time = v.duration; }},
      {"battery",
       T::kBool,
       "no",
       {},
       "write-back: the cache survives power loss, so a flush destages nothing",
       [](Draft& d, const Value& v) { d.spec.battery = v.flag; }},
      {"network_rtt",
       T::kDuration,
       "0",
       {},
       "a network round trip added to every request, flushes included",
       [](Draft& d, const Value& v) { d.spec.network_rtt = v.duration; }},
      {"cliff_after",
       T::kCliff,
       "none",
       {},
       "once this many bytes have been written, writes take cliff_write_time (an SSD's garbage collection)",
       [](Draft& d, const Value& v) {
         d.spec.cliff_after_bytes = v.number;
         d.cliff_size_multiple = v.real;
       }},
      {"cliff_write_time",
       T::kDuration,
       "",
       {},
       "the fixed write time after the cliff (required with cliff_after)",
       [](Draft& d, const Value& v) { d.spec.cliff_write_time = v.duration; }},
      {"jitter", T::kChoice, "none", words_of(kJitterKinds),
       "service-time variation, drawn from seed: uniform within +-jitter_fraction; exponential: that share of "
       "the time drawn from an exponential of the same mean",
       [](Draft& d, const Value& v) { d.spec.jitter = kJitterKinds.at(v.choice).second; }},
      {"jitter_fraction",
       T::kPercent,
       "0%",
       {},
       "how much of each service time varies (jitter); the mean never changes",
       [](Draft& d, const Value& v) { d.spec.jitter_fraction = v.real; }},
      {"seed",
       T::kCount,
       "1",
       {},
       "the jitter's and the seek model's random seed: the same seed, the same times",
       [](Draft& d, const Value& v) { d.spec.seed = v.number; }},
      {"fault",
       T::kFault,
       "none",
       {},
       "one fault rule a line, OP:ACTION[:TRIGGER]... (may be given several times; the first rule that matches "
       "decides): OP read, write, flush or any; ACTION eio or enospc (the request fails with that error at the "
       "model's time), stall=DURATION (the reply that much later), lie (writes: acknowledged, not stored); "
       "TRIGGER at=OFFSET (the request holds that byte), after=N (after N requests of OP), after_time=DURATION "
       "(that long after the daemon started), count=K (at most K times)",
       [](Draft& d, const Value& v) { d.spec.faults.push_back(v.fault); }},
  };
}

}  // namespace

const std::vector<ModelKey>& model_keys() {
  static const std::vector<ModelKey> kKeys = make_model_keys();
  return kKeys;
}

bool model_key_repeats(const ModelKey& key) noexcept { return key.type == ModelValueType::kFault; }

const ModelKey* find_model_key(std::string_view name) {
  for (const ModelKey& key : model_keys()) {
    if (key.name == name) return &key;
  }
  return nullptr;
}

std::string_view model_value_syntax(ModelValueType type) {
  switch (type) {
    case ModelValueType::kText:
      return "text";
    case ModelValueType::kCount:
      return "an integer";
    case ModelValueType::kSize:
      return "a size (4k, 1g; k = 1024)";
    case ModelValueType::kDuration:
      return "a duration with a unit (0.8ms, 250us)";
    case ModelValueType::kRate:
      return "a size per second (250MiB/s)";
    case ModelValueType::kPercent:
      return "a percentage (10%)";
    case ModelValueType::kChoice:
      return "one of";
    case ModelValueType::kBool:
      return "yes or no";
    case ModelValueType::kCliff:
      return "a size, or a multiple of size (1.5x)";
    case ModelValueType::kFault:
      return "a rule OP:ACTION[:TRIGGER]... (read:eio:at=1m)";
  }
  return "";
}

}  // namespace sluice
