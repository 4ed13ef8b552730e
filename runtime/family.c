/* The routine families' table (family.h), from runtime/families.def. */
#include "family.h"

#include <stdio.h>
#include <string.h>

const gl_family gl_families[GL_FAMILIES] = {
#define GL_FAMILY_ROW(id_, real_, complex_, kind_, two_stage_, vendor_,       \
                      shared_stage1_, tune_as_)                               \
    [GL_FAMILY_##id_] = {.id = GL_FAMILY_##id_,                               \
                         .real_name = real_,                                  \
                         .complex_name = complex_,                            \
                         .kind = GL_KIND_##kind_,                             \
                         .two_stage = two_stage_,                             \
                         .vendor = vendor_,                                   \
                         .shared_stage1 = shared_stage1_,                     \
                         .tune_as = GL_FAMILY_##tune_as_},
#include "families.def"
#undef GL_FAMILY_ROW
};

const char *gl_call_name_text(const gl_call_name *name, char *buf,
                              unsigned size)
{
    snprintf(buf, size, "%c%s%s", name->precision, gl_call_name_family(name),
             name->two_stage ? "_2stage" : "");
    return buf;
}

int gl_call_name_parse(const char *base, gl_call_name *out)
{
    char p = base[0];
    if (!p || !strchr("sdcz", p))
        return 0;
    for (int f = 0; f < GL_FAMILIES; f++) {
        gl_call_name name = {&gl_families[f], p, 0};
        const char *family = gl_call_name_family(&name);
        size_t len = strlen(family);
        if (strncmp(base + 1, family, len) != 0)
            continue;
        name.two_stage = strcmp(base + 1 + len, "_2stage") == 0;
        if (base[1 + len] == 0 || (name.two_stage && name.family->two_stage)) {
            *out = name;
            return 1;
        }
    }
    return 0;
}
