#pragma once
// The subcommands. Each takes the arguments after its name and returns the process exit code;
// UserError escapes to cli_main, which prints it and exits 1. command_registry.h lists them.
#include <string>
#include <vector>

#include "cli/command_table.h"

namespace sluice {

int run_command(const std::vector<std::string>& args);
int quick_command(const std::vector<std::string>& args);
int precondition_command(const std::vector<std::string>& args);
int interfere_command(const std::vector<std::string>& args);
int capacity_command(const std::vector<std::string>& args);
int help_command(const std::vector<std::string>& args);
int version_command(const std::vector<std::string>& args);
int restore_command(const std::vector<std::string>& args);
int compare_command(const std::vector<std::string>& args);
int report_command(const std::vector<std::string>& args);
int filetree_command(const std::vector<std::string>& args);
int history_command(const std::vector<std::string>& args);
int sysbench_command(const std::vector<std::string>& args);
int postmark_command(const std::vector<std::string>& args);
int iozone_command(const std::vector<std::string>& args);
int metadata_command(const std::vector<std::string>& args);
int bonnie_command(const std::vector<std::string>& args);
int http_command(const std::vector<std::string>& args);
int scale_command(const std::vector<std::string>& args);
int selftest_command(const std::vector<std::string>& args);
int smtp_command(const std::vector<std::string>& args);
int lab_command(const std::vector<std::string>& args);
int server_command(const std::vector<std::string>& args);
// fio's `--server[=ADDR]` among a run's arguments (the fio link, sluice fio, sluice --server): serve instead.
bool asks_for_server(const std::vector<std::string>& args);
int server_from_fio_arguments(const std::vector<std::string>& args);
// fio's `--client=HOST` among a run's arguments: sluice as fio's client (fionet/client.h).
bool asks_for_client(const std::vector<std::string>& args);
int client_from_fio_arguments(const std::vector<std::string>& args);

const CommandInfo& help_command_info();
const CommandInfo& version_command_info();
const CommandInfo& compare_command_info();
const CommandInfo& report_command_info();
const CommandInfo& filetree_command_info();
const CommandInfo& history_command_info();
const CommandInfo& sysbench_command_info();
const CommandInfo& postmark_command_info();
const CommandInfo& iozone_command_info();
const CommandInfo& metadata_command_info();
const CommandInfo& bonnie_command_info();
const CommandInfo& http_command_info();
const CommandInfo& scale_command_info();
const CommandInfo& selftest_command_info();
const CommandInfo& smtp_command_info();
const CommandInfo& lab_command_info();
const CommandInfo& server_command_info();

// Replays the kernel-knob journal a killed run left behind (see observe/knob_journal.h); prints what it did
// to stderr; never throws. Costs one stat when there is no journal.
void replay_knob_journal_at_start();

// Exit codes.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;          // bad input, failed job, I/O error
inline constexpr int kExitInterrupted = 130;  // stopped by SIGINT/SIGTERM; results were still printed

}  // namespace sluice
