/* Subcommands of the pixflow CLI (one file each). */
#ifndef PIXFLOW_TOOL_COMMANDS_H
#define PIXFLOW_TOOL_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int bench_resize(int argc, char **argv);

#endif
