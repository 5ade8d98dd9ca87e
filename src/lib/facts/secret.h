/*
 * What of an environment variable must not leave the machine in a
 * snapshot: secrets told by the variable's name (…_TOKEN, …_PASSPHRASE) and
 * by the value's shape (known token prefixes, JWTs, credentials in a URL,
 * signed-URL parameters, a conda channel's token, a long random string under
 * a credential-like name).  Only the secret part of a value is replaced
 * where it can be told apart (the user part of a URL, one query parameter).
 */
#ifndef CP_SECRET_H
#define CP_SECRET_H

#include <stddef.h>

/* The text that stands where a secret was. */
#define CP_REDACTED "<redacted>"

/* Write into out (cap bytes, always NUL-terminated) the value of the
 * variable `name` as a snapshot may keep it: the value itself when nothing
 * in it looks secret, otherwise with each secret part replaced by
 * CP_REDACTED, or all of it when the name says the variable holds a secret
 * or the result does not fit.  why (whycap bytes; NULL for none) gets the
 * reasons, joined by ", " ("the name says TOKEN", "a GitHub token", "a
 * JWT", "credentials in a URL", "the URL parameter X-Amz-Signature", ...),
 * never any part of the value.  Returns 1 when something was redacted, 0
 * when the value is kept as it is. */
int cp_secret_redact(const char *name, const char *value, char *out, size_t cap, char *why, size_t whycap);

/* True when cp_secret_redact would redact something of this variable. */
int cp_env_looks_secret(const char *name, const char *value);

#endif
