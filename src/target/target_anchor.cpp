namespace sluice { int target_module_anchor = 0; }
