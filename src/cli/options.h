/* Option parsing helpers shared by the subcommands (options.c). */
#ifndef CP_CLI_OPTIONS_H
#define CP_CLI_OPTIONS_H

int opt_match(int argc, char **argv, int *i, const char *flag, const char **val);
int opt_seconds_ms(const char *s);
int opt_live_mask(const char *s, unsigned *mask);

#endif
