namespace sluice { int method_module_anchor = 0; }
