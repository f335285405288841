namespace sluice { int observe_module_anchor = 0; }
