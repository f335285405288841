namespace sluice { int report_module_anchor = 0; }
