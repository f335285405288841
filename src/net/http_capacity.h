#pragma once
// sluice capacity --target=http: the capacity search of method/capacity.h with HTTP load as the measured
// point. The concurrency is the number of closed-loop connections; a point's "IOPS" is complete responses
// per second and its latency is request start to the last response byte.
#include "method/capacity.h"
#include "net/http_load.h"

namespace sluice {

// Runs search_capacity over `load` (URLs, method, headers, keep-alive; parallel, rate, duration and
// fetches are set per point). Each point runs an unmeasured ramp segment, then measured segments of one
// sample interval until its responses/s series is steady (snia_steady) or its share of the budget is spent.
// Throws UserError when a point gets no response at all (the first errors say why). Honors SIGINT.
CapacityResult find_http_capacity(const CapacityRequest& request, const HttpLoadOptions& load);

}  // namespace sluice
