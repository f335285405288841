namespace sluice { int engine_module_anchor = 0; }
