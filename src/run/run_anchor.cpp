namespace sluice { int run_module_anchor = 0; }
