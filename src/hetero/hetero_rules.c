/* Per-op-class placement rules (dispatch.h, "Op classes and rules"):
 * setting and parsing them, and what they make of a batch's placement. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "hetero/hetero.h"

static int class_of(const char *s) {
    if (strcmp(s, "geometry") == 0) return PFI_HX_GEOMETRY;
    if (strcmp(s, "pointwise") == 0) return PFI_HX_POINTWISE;
    return -1;
}

/* Index of the dispatcher's device `name` ("opencl" = "opencl:0"), or -1. */
static int dev_index(const pf_dispatch *d, const char *name) {
    pf_device_kind kind;
    int index;
    if (!pfi_hx_parse_name(name, &kind, &index)) return -1;
    for (int i = 0; i < d->ndev; ++i)
        if (d->dev[i].kind == kind && d->dev[i].index == index) return i;
    return -1;
}

static void dev_list(const pf_dispatch *d, char *out, size_t n) {
    out[0] = '\0';
    for (int i = 0; i < d->ndev; ++i) {
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s%s", i ? ", " : "", d->dev[i].name);
    }
}

PF_API pf_status pf_dispatch_set_rule(pf_dispatch *d, const char *op_class, const char *device) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_set_rule: d is NULL");
    if (op_class == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_set_rule: op_class is NULL");
    int c = class_of(op_class);
    if (c < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_dispatch_set_rule: op_class \"%s\" is not an op class (geometry or pointwise)", op_class);
    if (device == NULL) {
        d->rule[c] = -1;
        return PF_OK;
    }
    int i = dev_index(d, device);
    if (i < 0) {
        char list[256];
        dev_list(d, list, sizeof list);
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_dispatch_set_rule: device \"%s\" is not a device of this dispatcher (%s)", device, list);
    }
    d->rule[c] = i;
    return PF_OK;
}

PF_API pf_status pf_dispatch_set_rules(pf_dispatch *d, const char *rules) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_set_rules: d is NULL");
    int next[PFI_HX_NCLASS] = {-1, -1};
    if (rules != NULL && rules[0] != '\0') {
        /* all tokens are checked before any rule changes */
        const char *p = rules;
        for (;;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            while (len > 0 && *p == ' ') p++, len--;
            while (len > 0 && p[len - 1] == ' ') len--;
            char tok[96];
            if (len >= sizeof tok)
                return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_set_rules: rules: a token is longer than %d "
                                "characters", (int)sizeof tok - 1);
            memcpy(tok, p, len);
            tok[len] = '\0';
            char *eq = strchr(tok, '=');
            if (eq == NULL || eq == tok || eq[1] == '\0')
                return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                                "pf_dispatch_set_rules: rules token \"%s\" is not class=device (e.g. "
                                "\"geometry=opencl:0,pointwise=cpu\")", tok);
            *eq = '\0';
            const char *dev = eq + 1;
            int c = class_of(tok);
            if (c < 0)
                return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                                "pf_dispatch_set_rules: rules token \"%s=%s\": op class \"%s\" is not geometry or "
                                "pointwise", tok, dev, tok);
            if (next[c] >= 0)
                return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_set_rules: rules token \"%s=%s\": %s is ruled twice",
                                tok, dev, tok);
            int i = dev_index(d, dev);
            if (i < 0) {
                char list[256];
                dev_list(d, list, sizeof list);
                return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                                "pf_dispatch_set_rules: rules token \"%s=%s\": \"%s\" is not a device of this "
                                "dispatcher (%s)", tok, dev, dev, list);
            }
            next[c] = i;
            if (!e) break;
            p = e + 1;
        }
    }
    memcpy(d->rule, next, sizeof next);
    return PF_OK;
}

PF_API pf_status pf_dispatch_rules_get(const pf_dispatch *d, char *out, size_t out_len) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_rules_get: d is NULL");
    if (out == NULL || out_len == 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_rules_get: out is NULL or out_len is 0");
    out[0] = '\0';
    for (int c = 0; c < PFI_HX_NCLASS; ++c) {
        if (d->rule[c] < 0) continue;
        size_t l = strlen(out);
        snprintf(out + l, out_len - l, "%s%s=%s", l ? "," : "", pfi_hx_class_name(c), d->dev[d->rule[c]].name);
    }
    return PF_OK;
}

int pfi_hx_rule_place(pf_dispatch *d, double w[]) {
    int g = d->rule[PFI_HX_GEOMETRY], p = d->rule[PFI_HX_POINTWISE];
    if (g < 0 && p < 0) return 0;
    char why[160] = "";
    int whole = g >= 0 ? g : p;
    if (g >= 0 && p >= 0 && g != p) {
        pf_preprocess_desc geo, pt;
        if (pfi_hx_split_descs(&d->desc, &geo, &pt, why, sizeof why) &&
            pfi_hx_split_batch_ok(&d->desc, d->count, d->job.params, why, sizeof why)) {
            pfi_hx_split_select(d, &geo, &pt, g, p, -1);
            unsigned long long per = (unsigned long long)pfi_hx_split_bytes(&d->desc);
            for (int i = 0; i < d->ndev; ++i) {
                pfi_hx_dev *x = &d->dev[i];
                w[i] = 0;
                if (i == g || i == p)
                    snprintf(x->st.reason, sizeof x->st.reason, "rule: %s -> %s (split chain, %llu B/sample moved)",
                             i == g ? "geometry" : "pointwise", x->name, per);
                else
                    snprintf(x->st.reason, sizeof x->st.reason, "not used: rules split the chain over %s and %s",
                             d->dev[g].name, d->dev[p].name);
            }
            return 1;
        }
    }
    for (int i = 0; i < d->ndev; ++i) {
        pfi_hx_dev *x = &d->dev[i];
        w[i] = i == whole ? 1 : 0;
        if (i != whole)
            snprintf(x->st.reason, sizeof x->st.reason, "not used: rules keep the chain whole on %s",
                     d->dev[whole].name);
        else if (why[0])
            snprintf(x->st.reason, sizeof x->st.reason, "rule: geometry -> %s, pointwise -> %s; not split: %s; "
                     "chain whole here", d->dev[g].name, d->dev[p].name, why);
        else if (g >= 0 && p >= 0)
            snprintf(x->st.reason, sizeof x->st.reason, "rule: geometry, pointwise -> %s (chain whole)", x->name);
        else
            snprintf(x->st.reason, sizeof x->st.reason, "rule: %s -> %s (chain whole)", g >= 0 ? "geometry" : "pointwise",
                     x->name);
    }
    return 1;
}
