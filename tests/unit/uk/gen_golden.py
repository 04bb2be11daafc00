#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Transcribe tests/data/irdma-golden-vectors.json into C tables (rows of golden.h).

The generator only copies: every expected value comes from the file. Inputs written as prose in the file
(sg[a..b], inline byte patterns) are expanded with the file's own conventions, which are checked verbatim so
that a changed convention stops the build instead of silently testing something else. Any vector kind,
operation or field this script does not know is an error.
"""
import json
import re
import sys

SGE_CONVENTION = "sg[k]: addr=0x1000000000+0x1010*k, length=0x100*(k+1), lkey=0xA0000+k"
INLINE_PATTERN = "bytes 0x01,0x02,...,(n) i.e. byte[k]=k+1"


def die(msg):
    sys.stderr.write("gen_golden.py: %s\n" % msg)
    sys.exit(1)


def num(v):
    """JSON number, "0x..." string, or "0x... (comment)" string -> int."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        m = re.match(r"\s*(0x[0-9a-fA-F]+|-?\d+)", v)
        if m:
            return int(m.group(1), 0)
    die("not a number: %r" % (v,))


def u64(v):
    return "0x%016xULL" % (num(v) & 0xFFFFFFFFFFFFFFFF)


def cbool(v):
    return "true" if v else "false"


def cstr(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def conv_sge(k):
    return (0x1000000000 + 0x1010 * k, 0x100 * (k + 1), 0xA0000 + k)


def expand_sges(inp):
    s = inp.get("sges")
    if isinstance(s, list):
        return [(num(e["addr"]), num(e["len"]), num(e["lkey"])) for e in s]
    if isinstance(s, str):
        m = re.match(r"sg\[(\d+)(?:\.\.(\d+))?\]", s)
        if not m:
            die("unknown sges description %r" % s)
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        if a != 0:
            die("sges must start at sg[0]: %r" % s)
        return [conv_sge(k) for k in range(a, b + 1)]
    if s is None and "num_sges" in inp:
        return [conv_sge(k) for k in range(num(inp["num_sges"]))]
    if s is None:
        return []
    die("unknown sges %r" % (s,))


def qp_cfg(q):
    known = {"gen", "sq_depth", "sq_shift", "rq_depth", "rq_shift", "sq_ring_size", "rq_ring_size",
             "max_sq_frag_cnt", "max_rq_frag_cnt", "max_inline_data", "first_sq_wq", "qp_id"}
    if set(q) - known:
        die("unknown qp fields %s" % (set(q) - known))
    return ("{ .gen = %d, .sq_depth = %d, .rq_depth = %d, .sq_ring_size = %d, .rq_ring_size = %d, "
            ".sq_shift = %d, .rq_shift = %d, .max_sq_frag_cnt = %d, .max_rq_frag_cnt = %d, "
            ".max_inline_data = %d, .qp_id = %d, .first_sq_wq = %d }" % (
                q["gen"], q["sq_depth"], q["rq_depth"], q["sq_ring_size"], q["rq_ring_size"],
                q["sq_shift"], q["rq_shift"], q["max_sq_frag_cnt"], q["max_rq_frag_cnt"],
                q["max_inline_data"], num(q["qp_id"]), q["first_sq_wq"]))


def qwords_c(qs):
    if len(qs) > 32:
        die("too many qwords")
    return "{ " + ", ".join(u64(q) for q in qs) + " }"


SQ_INPUTS = {"op", "op_type", "signaled", "read_fence", "local_fence", "sges", "num_sges", "post_sq",
             "imm_data", "stag_to_inv", "qkey", "dest_qp", "ah_id", "udp_hdr", "l4len", "remote_addr",
             "rkey", "report_rtt", "inv_stag", "inline_len", "inline_bytes", "split", "target_stag",
             "mr_stag", "mw_stag", "bind_len", "va", "va_based", "ena_reads", "ena_writes", "type1",
             "wr_id", "local_addr", "lkey", "add", "swap", "compare"}


def sq_op(op):
    table = [
        (r"^inline[_ ]send", "GV_OP_INLINE_SEND"),
        (r"^inline_rdma_write", "GV_OP_INLINE_WRITE"),
        (r"^(send|ud_send)", "GV_OP_SEND"),
        (r"^rdma_write", "GV_OP_RDMA_WRITE"),
        (r"^rdma_read", "GV_OP_RDMA_READ"),
        (r"^local_invalidate$", "GV_OP_LOCAL_INV"),
        (r"^bind_mw\b", "GV_OP_BIND_MW"),
        (r"^nop\b", "GV_OP_NOP"),
        (r"^atomic_fetch_add$", "GV_OP_ATOMIC_FAA"),
        (r"^atomic_compare_swap$", "GV_OP_ATOMIC_CAS"),
    ]
    for pat, name in table:
        if re.match(pat, op):
            return name
    die("unknown SQ operation %r" % op)


def emit_sq(v):
    inp = v["inputs"]
    if set(inp) - SQ_INPUTS:
        die("%s: unknown input fields %s" % (v["name"], set(inp) - SQ_INPUTS))
    op = sq_op(inp["op"])
    f = [".name = %s" % cstr(v["name"]), ".qp = %s" % qp_cfg(v["qp"]),
         ".before_head = %d" % v["before"]["sq_head"], ".before_polarity = %d" % v["before"]["swqe_polarity"],
         ".op = %s" % op]
    slots = v.get("slots", [])
    # The file lists no wr_id input for most operations: the tracked wr_id of the WQE's own slot (the
    # last one; earlier ones are NOP padding) is the value the caller passed.
    if "wr_id" in inp:
        wr_id = num(inp["wr_id"])
    elif slots:
        wr_id = num(slots[-1]["wrid"])
    else:
        wr_id = 0
    f.append(".wr_id = %s" % u64(wr_id))
    for key in ("op_type", "l4len"):
        if key in inp:
            f.append(".%s = %d" % (key, num(inp[key])))
    for key in ("signaled", "read_fence", "local_fence", "report_rtt", "udp_hdr", "post_sq", "inv_stag",
                "ena_reads", "ena_writes", "type1", "va_based"):
        if key in inp:
            f.append(".%s = %s" % (key, cbool(inp[key])))
    if "imm_data" in inp:
        f.append(".imm_valid = true")
        f.append(".imm_data = %s" % u64(inp["imm_data"]))
    for key in ("stag_to_inv", "qkey", "dest_qp", "ah_id", "rkey", "target_stag", "mr_stag", "mw_stag",
                "lkey"):
        if key in inp:
            f.append(".%s = %s" % (key, u64(inp[key])))
    for key in ("remote_addr", "bind_len", "va", "local_addr", "add", "swap", "compare"):
        if key in inp:
            f.append(".%s = %s" % (key, u64(inp[key])))
    if op in ("GV_OP_INLINE_SEND", "GV_OP_INLINE_WRITE"):
        if "inline_bytes" in inp and inp["inline_bytes"] != INLINE_PATTERN:
            die("%s: unknown inline byte pattern" % v["name"])
        n = num(inp["inline_len"])
        nsg = num(inp.get("num_sges", 1))
        if nsg == 1:
            split = [n, 0]
        elif nsg == 2 and "split" in inp:
            a, b = (int(x) for x in inp["split"].split("+"))
            if a + b != n:
                die("%s: split does not add up" % v["name"])
            split = [a, b]
        else:
            die("%s: unsupported inline SGE layout" % v["name"])
        f += [".inline_len = %d" % n, ".num_sges = %d" % nsg, ".inline_split = { %d, %d }" % tuple(split)]
    elif op in ("GV_OP_SEND", "GV_OP_RDMA_WRITE", "GV_OP_RDMA_READ"):
        sges = expand_sges(inp)
        if len(sges) > 16:
            die("too many SGEs")
        f.append(".num_sges = %d" % len(sges))
        if sges:
            f.append(".sges = { " + ", ".join("{ %s, %d, %s }" % (u64(a), l, u64(k)) for a, l, k in sges) + " }")
    f.append(".ret = %d" % v["ret"])
    after = v.get("after")
    if after:
        f += [".after_head = %d" % after["sq_head"], ".after_polarity = %d" % after["swqe_polarity"],
              ".doorbell_written = %s" % cbool(after["doorbell_written"]),
              ".doorbell_value = %d" % num(after.get("doorbell_value", 0))]
    else:
        f += [".after_head = %d" % v["before"]["sq_head"], ".after_polarity = %d" % v["before"]["swqe_polarity"]]
    if len(slots) > 6:
        die("too many slots")
    cs = []
    for s in slots:
        if len(s["qwords"]) != 4 * s["quanta"]:
            die("%s: slot qword count does not match its quanta" % v["name"])
        if len(s["bytes_le"]) != 16 * len(s["qwords"]):
            die("%s: slot bytes_le length does not match its qwords" % v["name"])
        cs.append("{ .wqe_idx = %d, .quanta = %d, .wrid = %s, .wr_len = %d, .nqwords = %d, .qwords = %s, "
                  ".bytes_le = %s }" % (s["wqe_idx"], s["quanta"], u64(s["wrid"]), num(s["wr_len"]),
                                        len(s["qwords"]), qwords_c(s["qwords"]), cstr(s["bytes_le"])))
    f.append(".nslots = %d" % len(slots))
    if cs:
        f.append(".slots = { " + ", ".join(cs) + " }")
    if "next_slot_qword3" in v:
        f += [".has_next_slot_qword3 = true", ".next_slot_qword3 = %s" % u64(v["next_slot_qword3"])]
    return "{ " + ", ".join(f) + " }"


def emit_rq(v):
    inp = v["inputs"]
    if inp.get("sges", "sg[0..n-1] as above") != "sg[0..n-1] as above":
        die("%s: unknown RQ sges" % v["name"])
    return ("{ .name = %s, .qp = %s, .before_head = %d, .before_polarity = %d, .wr_id = %s, .num_sges = %d, "
            ".ret = %d, .after_head = %d, .after_polarity = %d, .after_multiplier = %d, "
            ".slot_quanta_index = %d, .nqwords = %d, .qwords = %s }" % (
                cstr(v["name"]), qp_cfg(v["qp"]), v["before"]["rq_head"], v["before"]["rwqe_polarity"],
                u64(inp["wr_id"]), num(inp["num_sges"]), v["ret"], v["after"]["rq_head"],
                v["after"]["rwqe_polarity"], v["after"]["rq_wqe_size_multiplier"], v["rq_slot_quanta_index"],
                len(v["qwords"]), qwords_c(v["qwords"])))


def emit_srq(v):
    s = v["srq"]
    depth_key = [k for k in s if k.startswith("srq_depth_from_get_srqdepth(")]
    if len(depth_key) != 1:
        die("%s: SRQ depth entry not found" % v["name"])
    m = re.match(r"srq_depth_from_get_srqdepth\((\d+) WRs\)", depth_key[0])
    if not m:
        die("%s: SRQ depth entry not understood" % v["name"])
    return ("{ .name = %s, .init_ret = %d, .max_sge_requested = %d, .wqe_shift = %d, .depth_wrs = %s, "
            ".depth = %d, .ring_size = %d, .max_srq_frag_cnt = %d, .multiplier = %d, .before_head = %d, "
            ".before_polarity = %d, .wr_id = %s, .num_sges = %d, .ret = %d, .after_head = %d, "
            ".after_polarity = %d, .shadow_qword0 = %s, .nqwords = %d, .qwords = %s }" % (
                cstr(v["name"]), s["init_ret"], s["max_sge_requested"], s["wqe_shift"], m.group(1),
                s[depth_key[0]], s["srq_ring_size"], s["max_srq_frag_cnt"], s["wqe_size_multiplier"],
                v["before"]["srq_head"], v["before"]["srwqe_polarity"], u64(v["inputs"]["wr_id"]),
                num(v["inputs"]["num_sges"]), v["ret"], v["after"]["srq_head"], v["after"]["srwqe_polarity"],
                u64(v["after"]["shadow_qword0"]), len(v["qwords"]), qwords_c(v["qwords"])))


def gen_of(name):
    m = re.match(r"gen(\d)_", name)
    if not m:
        die("no generation in vector name %r" % name)
    return int(m.group(1))


INFO_FIELDS = {"wr_id", "bytes_xfered", "qp_id", "ud_src_qpn", "imm_valid", "imm_data", "stag_invalid_set",
               "inv_stag", "comp_status", "error", "major_err", "minor_err", "op_type", "q_type",
               "solicited_event", "ipv4", "ud_vlan_valid", "ud_vlan", "ud_smac_valid", "ud_smac", "stat_raw"}


def emit_cqe(v):
    info = v["info"]
    if set(info) != INFO_FIELDS:
        die("%s: unexpected info fields %s" % (v["name"], set(info) ^ INFO_FIELDS))
    qs = v["cqe_qwords"]
    if len(qs) > 8:
        die("too many CQE qwords")
    ctx = [q == "QP_CTX" for q in qs]
    vals = [0 if c else num(q) for q, c in zip(qs, ctx)]
    mac = [int(x, 16) for x in info["ud_smac"].split(":")]
    if len(mac) != 6:
        die("bad MAC")
    gi = ("{ .wr_id = %s, .bytes_xfered = %d, .qp_id = %d, .ud_src_qpn = %d, .imm_data = %s, .inv_stag = %s, "
          ".stat_raw = %s, .imm_valid = %s, .stag_invalid_set = %s, .error = %s, .solicited_event = %s, "
          ".ipv4 = %s, .ud_vlan_valid = %s, .ud_smac_valid = %s, .comp_status = %d, .major_err = %s, "
          ".minor_err = %s, .ud_vlan = %s, .op_type = %d, .q_type = %d, .ud_smac = { %s } }" % (
              u64(info["wr_id"]), num(info["bytes_xfered"]), num(info["qp_id"]), num(info["ud_src_qpn"]),
              u64(info["imm_data"]), u64(info["inv_stag"]), u64(info["stat_raw"]), cbool(info["imm_valid"]),
              cbool(info["stag_invalid_set"]), cbool(info["error"]), cbool(info["solicited_event"]),
              cbool(info["ipv4"]), cbool(info["ud_vlan_valid"]), cbool(info["ud_smac_valid"]),
              num(info["comp_status"]), u64(info["major_err"]), u64(info["minor_err"]), u64(info["ud_vlan"]),
              num(info["op_type"]), num(info["q_type"]), ", ".join("0x%02x" % b for b in mac)))
    cq, ca = v["cq"], v["cq_after"]
    return ("{ .name = %s, .gen = %d, .cq_size = %d, .avoid_mem_cflct = %s, .head_before = %d, "
            ".polarity_before = %d, .sq_tail_before = %d, .rq_tail_before = %d, .nqwords = %d, .qwords = %s, "
            ".qword_is_qp_ctx = { %s }, .ret = %d, .info = %s, .head_after = %d, .tail_after = %d, "
            ".polarity_after = %d, .shadow_qword0_after = %s, .sq_tail_after = %d, .rq_tail_after = %d, "
            ".qword3_after = %s }" % (
                cstr(v["name"]), gen_of(v["name"]), cq["cq_size"], cbool(cq["avoid_mem_cflct"]),
                cq["head_before"], cq["polarity_before"], v["qp_before"]["sq_tail"], v["qp_before"]["rq_tail"],
                len(qs), qwords_c(vals), ", ".join(cbool(c) for c in ctx), v["ret"], gi, ca["head"], ca["tail"],
                ca["polarity"], u64(ca["shadow_qword0"]), v["qp_after"]["sq_tail"], v["qp_after"]["rq_tail"],
                u64(v["cqe_qword3_after"])))


def emit_arm(v):
    inp = v["inputs"]
    if v["kind"] == "cq_arm":
        m = re.match(r"IRDMA_CQ_COMPL_(EVENT|SOLICITED)\((\d)\)$", inp["notify"])
        if not m:
            die("%s: unknown notify %r" % (v["name"], inp["notify"]))
        return ("{ .name = %s, .gen = %d, .resized_cnt = false, .shadow_before = %s, .notify = %s, .cq_id = %d, "
                ".shadow_after = %s, .doorbell_value = %d }" % (
                    cstr(v["name"]), gen_of(v["name"]), u64(inp["shadow_qword4_before"]), m.group(2),
                    num(inp["cq_id"]), u64(v["shadow_qword4_after"]), num(v["doorbell_value"])))
    return ("{ .name = %s, .gen = %d, .resized_cnt = true, .shadow_before = %s, .cnt = %d, .shadow_after = %s }" % (
        cstr(v["name"]), gen_of(v["name"]), u64(inp["shadow_qword4_before"]), num(inp["cnt"]),
        u64(v["shadow_qword4_after"])))


def main():
    if len(sys.argv) != 3:
        die("usage: gen_golden.py vectors.json out.h")
    with open(sys.argv[1]) as fp:
        doc = json.load(fp)
    if SGE_CONVENTION not in doc["conventions"]:
        die("the SGE convention of the vector file changed")

    attrs = {}
    for key, a in doc["attr_sets"].items():
        m = re.match(r"gen(\d)$", key)
        if not m or int(m.group(1)) != a["hw_rev"]:
            die("unknown attribute set %r" % key)
        attrs[a["hw_rev"]] = a

    rows = {k: [] for k in ("shift", "fq", "fr", "depth", "calc", "sq", "rq", "srq", "cqe", "arm", "seq")}
    for v in doc["vectors"]:
        k, name = v["kind"], v["name"]
        if k == "sizing":
            if name == "get_wqe_shift":
                rows["shift"].append("{ %d, %d, %d, %d }" % (v["gen"], v["sge"], v["inline"], v["shift"]))
            elif name == "fragcnt_to_quanta_sq":
                rows["fq"].append("{ %d, %d, %d }" % (v["frag_cnt"], v["ret"], v["quanta"]))
            elif name == "fragcnt_to_wqesize_rq":
                rows["fr"].append("{ %d, %d, %d }" % (v["frag_cnt"], v["ret"], v["wqe_size"]))
            elif name in ("get_sqdepth", "get_rqdepth", "get_srqdepth"):
                fn = {"get_sqdepth": ("GV_SQDEPTH", "sq_size"), "get_rqdepth": ("GV_RQDEPTH", "rq_size"),
                      "get_srqdepth": ("GV_SRQDEPTH", "srq_size")}[name]
                rows["depth"].append("{ %s, %d, %d, %d, %d, %d }" % (fn[0], v["gen"], v[fn[1]], v["shift"],
                                                                     v["ret"], v["depth"]))
            elif name == "calc_depth_shift":
                rows["calc"].append(
                    "{ .gen = %d, .max_send_wr = %d, .max_recv_wr = %d, .max_send_sge = %d, .max_recv_sge = %d, "
                    ".max_inline = %d, .abi_ver = %d, .sq_ret = %d, .rq_ret = %d, .sq_depth = %d, .rq_depth = %d, "
                    ".sq_shift = %d, .rq_shift = %d, .reported_max_send_wr = %d, .reported_max_recv_wr = %d, "
                    ".sq_size_for_qp_init = %d, .rq_size_for_qp_init = %d }" % (
                        v["gen"], v["max_send_wr"], v["max_recv_wr"], v["max_send_sge"], v["max_recv_sge"],
                        v["max_inline"], v["abi_ver"], v["sq_ret"], v["rq_ret"], v["sq_depth"], v["rq_depth"],
                        v["sq_shift"], v["rq_shift"], v["reported_max_send_wr"], v["reported_max_recv_wr"],
                        v["sq_size_for_qp_init"], v["rq_size_for_qp_init"]))
            else:
                die("unknown sizing vector %r" % name)
        elif k == "sq_wqe":
            rows["seq"].append("{ GV_SEQ_SQ, %d }" % len(rows["sq"]))
            rows["sq"].append(emit_sq(v))
        elif k == "rq_wqe":
            rows["seq"].append("{ GV_SEQ_RQ, %d }" % len(rows["rq"]))
            rows["rq"].append(emit_rq(v))
        elif k == "srq_wqe":
            rows["srq"].append(emit_srq(v))
        elif k == "cqe_decode":
            rows["cqe"].append(emit_cqe(v))
        elif k in ("cq_arm", "cq_resized_cnt"):
            rows["arm"].append(emit_arm(v))
        else:
            die("unknown vector kind %r" % k)

    out = ["/* Generated by gen_golden.py from %s. Do not edit. */" % sys.argv[1].split("/")[-1],
           "#define GV_TOTAL_VECTORS %d" % len(doc["vectors"]),
           "enum gv_seq_kind { GV_SEQ_SQ, GV_SEQ_RQ };",
           "struct gv_seq { enum gv_seq_kind kind; unsigned int idx; };"]
    out.append("static const struct gv_attrs gv_attr_sets[4] = {")
    for g in sorted(attrs):
        a = attrs[g]
        out.append("  [%d] = { .hw_rev = %d, .max_hw_wq_frags = %d, .max_hw_read_sges = %d, .max_hw_inline = %d, "
                   ".max_hw_rq_quanta = %d, .max_hw_wq_quanta = %d, .max_hw_sq_chunk = %d, .min_hw_wq_size = %d, "
                   ".max_hw_srq_quanta = %d, .min_hw_cq_size = %d, .max_hw_cq_size = %d, .feature_flags = %s }," % (
                       g, a["hw_rev"], a["max_hw_wq_frags"], a["max_hw_read_sges"], a["max_hw_inline"],
                       a["max_hw_rq_quanta"], a["max_hw_wq_quanta"], a["max_hw_sq_chunk"], a["min_hw_wq_size"],
                       a.get("max_hw_srq_quanta", 0), a["min_hw_cq_size"], a["max_hw_cq_size"],
                       u64(a["feature_flags"])))
    out.append("};")
    for key, ctype, var in (("shift", "gv_wqe_shift", "gv_wqe_shift_rows"), ("fq", "gv_fragcnt", "gv_fragcnt_sq_rows"),
                            ("fr", "gv_fragcnt", "gv_fragcnt_rq_rows"), ("depth", "gv_depth", "gv_depth_rows"),
                            ("calc", "gv_calc", "gv_calc_rows"), ("sq", "gv_sq", "gv_sq_rows"),
                            ("rq", "gv_rq", "gv_rq_rows"), ("srq", "gv_srq", "gv_srq_rows"),
                            ("cqe", "gv_cqe", "gv_cqe_rows"), ("arm", "gv_arm", "gv_arm_rows"),
                            ("seq", "gv_seq", "gv_qp_seq")):
        out.append("static const struct %s %s[] = {" % (ctype, var))
        out += ["  %s," % r for r in rows[key]]
        out.append("};")
        out.append("#define %s_COUNT %d" % (var.upper(), len(rows[key])))
    with open(sys.argv[2], "w") as fp:
        fp.write("\n".join(out) + "\n")


main()
