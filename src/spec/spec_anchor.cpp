namespace sluice { int spec_module_anchor = 0; }
