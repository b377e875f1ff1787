/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wardenctl - A JSON writer, after bpftool's json_writer.h: it puts the
 * commas and escapes every string, so that no caller writes JSON by hand.
 *
 * Compact, on one line: jsonw_end() ends the document with a newline.
 * A string is written as wardenctl shows text on a terminal (print_text()):
 * a quote and a backslash are escaped for JSON, and every byte below 0x20
 * or above 0x7e is written as the four characters \xHH, as the kernel
 * escapes names ("\\x1b" in JSON).  So the output is ASCII, valid JSON
 * whatever the bytes, and a name keeps the escaping the kernel gave it.
 */
#ifndef WARDENCTL_JSON_WRITER_H
#define WARDENCTL_JSON_WRITER_H

#include <stdbool.h>
#include <stdio.h>

typedef struct json_writer {
	FILE *out;
	unsigned int depth;
	char sep;	/* what goes before the next value: ',' or nothing */
} json_writer_t;

void jsonw_init(json_writer_t *self, FILE *out);
void jsonw_end(json_writer_t *self);

void jsonw_start_object(json_writer_t *self);
void jsonw_end_object(json_writer_t *self);
void jsonw_start_array(json_writer_t *self);
void jsonw_end_array(json_writer_t *self);

void jsonw_name(json_writer_t *self, const char *name);
void jsonw_string(json_writer_t *self, const char *value);
void jsonw_bool(json_writer_t *self, bool value);
void jsonw_null(json_writer_t *self);
void jsonw_int(json_writer_t *self, long long value);
void jsonw_uint(json_writer_t *self, unsigned long long value);

void jsonw_string_field(json_writer_t *self, const char *name,
			const char *value);
void jsonw_bool_field(json_writer_t *self, const char *name, bool value);
void jsonw_null_field(json_writer_t *self, const char *name);
void jsonw_int_field(json_writer_t *self, const char *name, long long value);
void jsonw_uint_field(json_writer_t *self, const char *name,
		      unsigned long long value);

#endif /* WARDENCTL_JSON_WRITER_H */
