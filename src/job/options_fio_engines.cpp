// Options of fio's I/O engines that sluice does not have (rbd, http, net, exec, ...), and engine options of
// io_uring/libaio that sluice does not implement. Listed so that a fio job file using them is refused by
// name ("not supported by sluice") rather than reported as an unknown option.
#include "job/option_builders.h"

namespace sluice::detail {
namespace {

struct EngineOption {
  const char* name;
  const char* engines;  // fio's engines that take the option
};

constexpr EngineOption kEngineOptions[] = {
    {"bindname", "rdma"},
    {"brick", "gfapi"},
    {"busy_poll", "rbd, rados"},
    {"busy_wait_polling", "librpma server"},
    {"chunk_size", "dfs, libhdfs"},
    {"clientname", "rbd, rados"},
    {"clustername", "rbd, rados"},
    {"cmd_type", "io_uring_cmd"},
    {"conf", "rados"},
    {"cont", "dfs"},
    {"cuda_io", "libcufile"},
    {"direct_write_to_pmem", "librpma"},
    {"gpu_dev_id", "rdma"},
    {"gpu_dev_ids", "libcufile"},
    {"hdfsdirectory", "libhdfs"},
    {"hostname", "netsplice, net, rdma"},
    {"http_host", "http"},
    {"http_mode", "http"},
    {"http_pass", "http"},
    {"http_s3_key", "http"},
    {"http_s3_keyid", "http"},
    {"http_s3_region", "http"},
    {"http_s3_sse_customer_algorithm", "http"},
    {"http_s3_sse_customer_key", "http"},
    {"http_s3_storage_class", "http"},
    {"http_swift_auth_token", "http"},
    {"http_user", "http"},
    {"http_verbose", "http"},
    {"https", "http"},
    {"interface", "netsplice, net"},
    {"listen", "netsplice, net"},
    {"mss", "netsplice, net"},
    {"namenode", "libhdfs"},
    {"nfs_url", "nfs"},
    {"nodelay", "netsplice, net"},
    {"object_class", "dfs"},
    {"pingpong", "netsplice, net"},
    {"pool", "rbd, rados, dfs"},
    {"port", "net, netsplice, rdma, libhdfs"},
    {"protocol", "netsplice, net"},
    {"rbdname", "rbd"},
    {"readfua", "sg"},
    {"serverip", "librpma"},
    {"sg_write_mode", "sg"},
    {"single-instance", "gfapi"},
    {"skip_bad", "mtd"},
    {"stream_id", "sg"},
    {"touch_objects", "rados"},
    {"ttl", "netsplice, net"},
    {"uri", "nbd"},
    {"verb", "rdma"},
    {"volume", "gfapi"},
    {"window_size", "netsplice, net"},
    {"writefua", "sg"},
    {"xnvme_admin", "xnvme"},
    {"xnvme_async", "xnvme"},
    {"xnvme_dev_nsid", "xnvme"},
    {"xnvme_iovec", "xnvme"},
    {"xnvme_sync", "xnvme"},
};

}  // namespace

void add_fio_engine_options(std::vector<OptionDef>& table) {
  // "threads" (fio's tiobench profile option, without effect in other jobs) is accepted in
  // options_fio_control.cpp.
  for (const EngineOption& entry : kEngineOptions) {
    const std::string engines = entry.engines;
    table.push_back(unsupported_option(entry.name, "unsupported",
                                       "Option of fio's " + engines + " engine(s); not supported by sluice.",
                                       "an option of fio's " + engines + " engine(s), which sluice does not have"));
  }
}

}  // namespace sluice::detail
