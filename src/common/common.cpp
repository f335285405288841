// The common module is header-only; this file gives the static library an object.
namespace sluice {
int common_module_anchor = 0;
}
