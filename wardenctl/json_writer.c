// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - A JSON writer, after bpftool's json_writer.c (6.12:
 * tools/bpf/bpftool/json_writer.c): the same calls, without the pretty
 * printing, and with every byte of a string escaped (see json_writer.h).
 */

#include <assert.h>

#include "json_writer.h"

void jsonw_init(json_writer_t *const self, FILE *const out)
{
	*self = (json_writer_t){ .out = out };
}

/* Ends the document: everything opened is closed, then a newline. */
void jsonw_end(json_writer_t *const self)
{
	assert(self->depth == 0);
	putc('\n', self->out);
	fflush(self->out);
}

/* Before a value or a name: a comma if one came before it at this depth. */
static void jsonw_eor(json_writer_t *const self)
{
	if (self->sep)
		putc(self->sep, self->out);
	self->sep = ',';
}

static void jsonw_puts(json_writer_t *const self, const char *s)
{
	putc('"', self->out);
	for (; *s; s++) {
		const unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(self->out, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			fprintf(self->out, "\\\\x%02x", c);
		else
			putc(c, self->out);
	}
	putc('"', self->out);
}

static void jsonw_begin(json_writer_t *const self, const char c)
{
	jsonw_eor(self);
	putc(c, self->out);
	self->depth++;
	self->sep = '\0';
}

static void jsonw_close(json_writer_t *const self, const char c)
{
	assert(self->depth > 0);
	self->depth--;
	putc(c, self->out);
	self->sep = ',';
}

void jsonw_start_object(json_writer_t *const self)
{
	jsonw_begin(self, '{');
}

void jsonw_end_object(json_writer_t *const self)
{
	jsonw_close(self, '}');
}

void jsonw_start_array(json_writer_t *const self)
{
	jsonw_begin(self, '[');
}

void jsonw_end_array(json_writer_t *const self)
{
	jsonw_close(self, ']');
}

/* The name of the next value, in an object: the value adds no comma. */
void jsonw_name(json_writer_t *const self, const char *const name)
{
	jsonw_eor(self);
	jsonw_puts(self, name);
	putc(':', self->out);
	self->sep = '\0';
}

void jsonw_string(json_writer_t *const self, const char *const value)
{
	jsonw_eor(self);
	jsonw_puts(self, value);
}

void jsonw_bool(json_writer_t *const self, const bool value)
{
	jsonw_eor(self);
	fputs(value ? "true" : "false", self->out);
}

void jsonw_null(json_writer_t *const self)
{
	jsonw_eor(self);
	fputs("null", self->out);
}

void jsonw_int(json_writer_t *const self, const long long value)
{
	jsonw_eor(self);
	fprintf(self->out, "%lld", value);
}

void jsonw_uint(json_writer_t *const self, const unsigned long long value)
{
	jsonw_eor(self);
	fprintf(self->out, "%llu", value);
}

void jsonw_string_field(json_writer_t *const self, const char *const name,
			const char *const value)
{
	jsonw_name(self, name);
	jsonw_string(self, value);
}

void jsonw_bool_field(json_writer_t *const self, const char *const name,
		      const bool value)
{
	jsonw_name(self, name);
	jsonw_bool(self, value);
}

void jsonw_null_field(json_writer_t *const self, const char *const name)
{
	jsonw_name(self, name);
	jsonw_null(self);
}

void jsonw_int_field(json_writer_t *const self, const char *const name,
		     const long long value)
{
	jsonw_name(self, name);
	jsonw_int(self, value);
}

void jsonw_uint_field(json_writer_t *const self, const char *const name,
		      const unsigned long long value)
{
	jsonw_name(self, name);
	jsonw_uint(self, value);
}
