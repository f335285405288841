#include "cli/cli_main.h"

int main(int argc, char** argv) { return sluice::cli_main(argc, argv); }
