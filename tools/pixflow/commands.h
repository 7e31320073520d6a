/* Subcommands of the pixflow CLI (one file each). */
#ifndef PIXFLOW_TOOL_COMMANDS_H
#define PIXFLOW_TOOL_COMMANDS_H

/* 1 when argv[1..argc) holds --help or -h: every subcommand then prints
 * its usage to stdout and exits 0. */
int cli_wants_help(int argc, char **argv);

int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_recipe(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_pack(int argc, char **argv);

/* pixflow bench <name> (one file each, bench_<name>.c) */
int bench_resize(int argc, char **argv);
int bench_lut(int argc, char **argv);
int bench_photo(int argc, char **argv);
int bench_geom(int argc, char **argv);
int bench_convert(int argc, char **argv);
int bench_yuv(int argc, char **argv);
int bench_color(int argc, char **argv);
int bench_warp(int argc, char **argv);
int bench_filter(int argc, char **argv);
int bench_preprocess(int argc, char **argv);
int bench_decode(int argc, char **argv);
int bench_sampler(int argc, char **argv);
int bench_video(int argc, char **argv);
int bench_pipeline(int argc, char **argv);
int bench_post(int argc, char **argv);

#endif
