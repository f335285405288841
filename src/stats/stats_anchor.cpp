namespace sluice { int stats_module_anchor = 0; }
