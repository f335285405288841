namespace sluice { int workload_module_anchor = 0; }
