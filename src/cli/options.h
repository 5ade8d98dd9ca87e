/* Option parsing helpers shared by the subcommands (options.c). */
#ifndef CP_CLI_OPTIONS_H
#define CP_CLI_OPTIONS_H

#include "cuprobe/cuprobe.h"

int opt_match(int argc, char **argv, int *i, const char *flag, const char **val);
int opt_seconds_ms(const char *s);
int opt_live_mask(const char *s, unsigned *mask);

int opt_observe(int argc, char **argv, int *i, cp_observe_opts *o);

#endif
