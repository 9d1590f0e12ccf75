#!/usr/bin/env python3
"""Generate the card's interface files from contract/card.toml.

One source of truth (card.toml) -> the C header shared by the driver, the
firmware and the card model; the SystemVerilog package used by rtl/; the tables
in docs/hardware.md.  `--check` renders everything in memory and fails when a
committed output differs, which is what the ctest `contract_fresh` runs.
Standard library only (tomllib, Python >= 3.11), so it runs on a fresh machine.
"""
import argparse
import pathlib
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "contract" / "card.toml"
BANNER = "GENERATED FILE - DO NOT EDIT. Source: contract/card.toml, generator: contract/generate.py (make regen)."


def load():
    with open(SOURCE, "rb") as f:
        return tomllib.load(f)


def validate(c):
    """Catch contract mistakes (overlaps, fields past 32 bits) before they spread."""
    seen = {}
    for r in c["registers"]:
        off = r["offset"]
        if off % 4:
            raise SystemExit(f"card.toml: register {r['name']}: offset {off:#x} is not 32-bit aligned")
        if off in seen:
            raise SystemExit(f"card.toml: registers {seen[off]} and {r['name']} share offset {off:#x}")
        seen[off] = r["name"]
        check_fields(r["name"], r.get("fields", []))
    # VERSION's reset value is what the card reads back: it must be [meta]'s version.
    m = c["meta"]
    want = (m["version_major"] << 16) | m["version_minor"]
    for r in c["registers"]:
        if r["name"] == "VERSION" and r.get("reset") != want:
            raise SystemExit(f"card.toml: VERSION's reset {r.get('reset', 0):#010x} is not [meta]'s version "
                             f"{m['version_major']}.{m['version_minor']} ({want:#010x}): change one to match")
    for b in c["bitfields"]:
        check_fields(b["name"], b["fields"])
    for fmt in c["formats"]:
        end = 0
        for fld in fmt["fields"]:
            if fld["offset"] < end:
                raise SystemExit(f"card.toml: format {fmt['name']}: field {fld['name']} overlaps the previous one")
            end = fld["offset"] + fld["bits"] // 8
        if end != fmt["size"]:
            raise SystemExit(f"card.toml: format {fmt['name']}: fields cover {end} bytes, size says {fmt['size']}")


def check_fields(owner, fields):
    used = 0
    for f in fields:
        mask = ((1 << f["width"]) - 1) << f["lsb"]
        if f["lsb"] + f["width"] > 32 or used & mask:
            raise SystemExit(f"card.toml: {owner}.{f['name']}: field overlaps another or passes bit 31")
        used |= mask


def field_mask(f):
    return ((1 << f["width"]) - 1) << f["lsb"]


# ----------------------------------------------------------------------------- C


def render_c(c):
    p = "IPU"
    out = [f"/* {BANNER} */",
           "/* The virtual IPU card's hardware interface: PCI identity, BAR0 registers,",
           " * tile address map, tile CSRs, memory formats, error codes and the control",
           " * program encoding. Usable from C11, C++ and assembly (numbers only there). */",
           "#ifndef IPU_CARD_HW_H", "#define IPU_CARD_HW_H", ""]
    m = c["meta"]
    out += [f"#define {p}_CONTRACT_VERSION_MAJOR {m['version_major']}u",
            f"#define {p}_CONTRACT_VERSION_MINOR {m['version_minor']}u", ""]
    out.append("/* PCI identity */")
    for k, v in c["pci"].items():
        out.append(f"#define {p}_PCI_{k.upper()} {v:#06x}u")
    out.append("")
    out.append("/* BARs */")
    for b in c["bars"]:
        out.append(f"#define {p}_BAR_{b['name']} {b['index']}u")
        out.append(f"#define {p}_BAR_{b['name']}_SIZE {b['size']:#x}u")
    out.append("")
    for e in c["enums"]:
        out.append(f"/* {e['name']}: {e['desc']} */")
        for v in e["values"]:
            out.append(f"#define {p}_{e['name']}_{v['name']} {v['value']}u")
        out.append("")
    out.append("/* BAR0 registers (32-bit) */")
    for r in c["registers"]:
        out.append(f"#define {p}_REG_{r['name']} {r['offset']:#05x}u")
        if "reset" in r:
            out.append(f"#define {p}_REG_{r['name']}_RESET_VALUE {r['reset']:#010x}u")
        for f in r.get("fields", []):
            out.append(f"#define {p}_REG_{r['name']}_{f['name']}_SHIFT {f['lsb']}u")
            out.append(f"#define {p}_REG_{r['name']}_{f['name']}_MASK {field_mask(f):#010x}u")
    out.append(f"#define {p}_RESET_KEY {reset_key(c):#010x}u")
    out.append(f"/* The first BAR0 offset past the register map (the link refuses offsets from there: NAK RANGE). */")
    out.append(f"#define {p}_REGS_END {regs_end(c):#06x}u")
    for a in c["register_arrays"]:
        out.append(f"#define {p}_REG_{a['name']}_BASE {a['offset']:#06x}u")
        out.append(f"#define {p}_REG_{a['name']}_COUNT {a['count']}u")
        out.append(f"#define {p}_REG_{a['name']}_STRIDE {a['stride']}u")
    out.append("")
    for b in c["bitfields"]:
        out.append(f"/* {b['name']}: {b['desc']} */")
        for f in b["fields"]:
            out.append(f"#define {p}_{b['name']}_{f['name']}_SHIFT {f['lsb']}u")
            out.append(f"#define {p}_{b['name']}_{f['name']}_MASK {field_mask(f):#010x}u")
        out.append("")
    out.append("/* Format sizes and field offsets */")
    for fmt in c["formats"]:
        out.append(f"#define {p}_{fmt['name']}_SIZE {fmt['size']}u")
        for fld in fmt["fields"]:
            out.append(f"#define {p}_{fmt['name']}_{fld['name']}_OFFSET {fld['offset']}u")
    out.append(f"#define {p}_HX_TO_HOST 1u")
    out.append("")
    t = c["tile"]
    out += ["/* Tile address map */",
            f"#define {p}_TILE_SRAM_BASE {t['sram_base']:#010x}u",
            f"#define {p}_TILE_SRAM_MAX_BYTES {t['sram_max_bytes']:#x}u",
            f"#define {p}_TILE_CONTEXTS_MAX {t['reset_contexts']}u", ""]
    out.append("/* Tile CSRs */")
    for r in c["csrs"]:
        out.append(f"#define {p}_CSR_{r['name']} {r['number']:#05x}")
    out.append("")
    cp = c["control_program"]
    out.append("/* Control program: header word fields */")
    for f in cp["header_fields"]:
        out.append(f"#define {p}_CP_{f['name']}_SHIFT {f['lsb']}u")
        out.append(f"#define {p}_CP_{f['name']}_MASK {field_mask(f):#010x}u")
    out.append(f"#define {p}_CP_WHILE_FALSE_FLAG 0x100u")
    out.append("/* Host link framing (LINK_TYPE, LINK_NAK above) */")
    for k in ("sof", "baud", "max_payload"):
        out.append(f"#define {p}_LINK_{k.upper()} {c['link'][k]:#x}u")
    out.append("/* The host's recovery after a framing error ([link] desc) */")
    for k in ("resync_quiet_ms", "resync_probes"):
        out.append(f"#define {p}_LINK_{k.upper()} {c['link'][k]}u")
    out.append("/* USB UART chips the usb transport speaks the link through: vendor, product, interface */")
    for u in c["link_usb"]:
        for k in ("vendor", "product", "interface"):
            out.append(f"#define {p}_LINK_USB_{u['name']}_{k.upper()} {u[k]:#x}u")
    ids = ", ".join(f"{{{u['vendor']:#x}u, {u['product']:#x}u, {u['interface']}u}}" for u in c["link_usb"])
    out.append(f"#define {p}_LINK_USB_IDS {{{ids}}}")
    out.append("")
    out.append(f"#define {p}_CP_STREAM_DONE_FLAG 0x800000u")
    for op in c["cp_ops"]:
        fixed = 1 + len([o for o in op["operands"] if "..." not in o])
        out.append(f"#define {p}_CP_OP_{op['name']} {op['value']}u /* fixed length {fixed} */")
    out.append("")
    out += ["#ifndef __ASSEMBLER__", "#include <stdint.h>", ""]
    for fmt in c["formats"]:
        out.append(f"/* {fmt['desc']} */")
        out.append(f"struct ipu_{fmt['name'].lower()} {{")
        for fld in fmt["fields"]:
            out.append(f"    uint{fld['bits']}_t {fld['name'].lower()}; /* {fld['desc']} */")
        out.append("};")
        out.append(f"IPU_HW_STATIC_ASSERT(sizeof(struct ipu_{fmt['name'].lower()}) == {fmt['size']}, "
                   f"ipu_{fmt['name'].lower()}_size);")
        out.append("")
    out.insert(out.index("#ifndef __ASSEMBLER__") + 3,
               "#ifdef __cplusplus\n#define IPU_HW_STATIC_ASSERT(e, n) static_assert(e, #n)\n"
               "#else\n#define IPU_HW_STATIC_ASSERT(e, n) _Static_assert(e, #n)\n#endif\n")
    out += ["/* Builds a control-program header word. */",
            "static inline uint32_t ipu_cp_header(uint32_t opcode, uint32_t length, uint32_t imm)",
            "{",
            f"    return (opcode << {p}_CP_OPCODE_SHIFT) | (length << {p}_CP_LENGTH_SHIFT) | (imm << {p}_CP_IMM_SHIFT);",
            "}", "", "#endif /* __ASSEMBLER__ */", "", "#endif /* IPU_CARD_HW_H */", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------- SV


def render_sv(c):
    out = [f"// {BANNER}",
           "// The card's hardware interface for rtl/: register offsets, fields, enums, CSRs.",
           "package ipu_card_pkg;", ""]
    m = c["meta"]
    out.append(f"  localparam int unsigned ContractVersionMajor = {m['version_major']};")
    out.append(f"  localparam int unsigned ContractVersionMinor = {m['version_minor']};")
    out.append(f"  localparam logic [15:0] PciVendorId = 16'h{c['pci']['vendor_id']:04x};")
    out.append(f"  localparam logic [15:0] PciDeviceId = 16'h{c['pci']['device_id']:04x};")
    out.append(f"  localparam logic [31:0] TileSramBase = 32'h{c['tile']['sram_base']:08x};")
    out.append(f"  localparam logic [31:0] ResetKey = 32'h{reset_key(c):08x};")
    out.append(f"  localparam logic [7:0] LinkSof = 8'h{c['link']['sof']:02x};")
    out.append(f"  localparam int unsigned LinkBaud = {c['link']['baud']};")
    out.append(f"  localparam int unsigned LinkMaxPayload = {c['link']['max_payload']};")
    out.append("")
    for e in c["enums"]:
        name = camel(e["name"])
        out.append(f"  // {e['desc']}")
        out.append(f"  typedef enum logic [7:0] {{")
        vals = [f"    {camel(e['name'])}{camel(v['name'])} = 8'd{v['value']}" for v in e["values"]]
        out.append(",\n".join(vals))
        out.append(f"  }} {snake(e['name'])}_e;")
        out.append("")
    out.append("  // BAR0 register offsets; RegsEnd: the first offset past the register map")
    out.append(f"  localparam logic [15:0] RegsEnd = 16'h{regs_end(c):04x};")
    for r in c["registers"]:
        out.append(f"  localparam logic [15:0] Reg{camel(r['name'])} = 16'h{r['offset']:04x};")
        if "reset" in r:
            out.append(f"  localparam logic [31:0] Reg{camel(r['name'])}ResetValue = 32'h{r['reset']:08x};")
    for a in c["register_arrays"]:
        out.append(f"  localparam logic [15:0] Reg{camel(a['name'])}Base = 16'h{a['offset']:04x};")
        out.append(f"  localparam int unsigned Reg{camel(a['name'])}Count = {a['count']};")
    out.append("")
    out.append("  // Register fields: bit offset and width")
    for owner, fields in [(r["name"], r.get("fields", [])) for r in c["registers"]] + \
                         [(b["name"], b["fields"]) for b in c["bitfields"]]:
        for f in fields:
            out.append(f"  localparam int unsigned {camel(owner)}{camel(f['name'])}Lsb = {f['lsb']};")
            out.append(f"  localparam int unsigned {camel(owner)}{camel(f['name'])}Width = {f['width']};")
    out.append("")
    out.append("  // Memory formats: size, and each field's byte offset and width in bits")
    for fmt in c["formats"]:
        out.append(f"  localparam int unsigned {camel(fmt['name'])}Bytes = {fmt['size']};")
        for f in fmt["fields"]:
            out.append(f"  localparam int unsigned {camel(fmt['name'])}{camel(f['name'])}Offset = {f['offset']};")
            out.append(f"  localparam int unsigned {camel(fmt['name'])}{camel(f['name'])}Bits = {f['bits']};")
    out.append("")
    out.append("  // Tile CSR numbers")
    for r in c["csrs"]:
        out.append(f"  localparam logic [11:0] Csr{camel(r['name'])} = 12'h{r['number']:03x};")
    out.append("")
    out.append("  // Control-program opcodes")
    for op in c["cp_ops"]:
        out.append(f"  localparam logic [7:0] CpOp{camel(op['name'])} = 8'd{op['value']};")
    out += ["", "endpackage : ipu_card_pkg", ""]
    return "\n".join(out)


def reset_key(c):
    """The RESET register's key, kept beside the register in card.toml."""
    return next(r["reset_key"] for r in c["registers"] if r["name"] == "RESET")


def regs_end(c):
    """The first BAR0 offset past every register and register array."""
    ends = [r["offset"] + 4 for r in c["registers"]]
    ends += [a["offset"] + a["count"] * a["stride"] for a in c["register_arrays"]]
    return max(ends)


def camel(s):
    return "".join(w.capitalize() for w in s.lower().split("_"))


def snake(s):
    return s.lower()


# --------------------------------------------------------------------------- docs


def render_md(c):
    out = [f"<!-- {BANNER} -->", "", "# The card's hardware interface", "",
           "This page is generated from `contract/card.toml`, the single source of truth for",
           "the card's interface. The same file generates `contract/include/ipu_card/hw.h`",
           "(driver, firmware, card model) and `rtl/pkg/ipu_card_pkg.sv` (RTL). Edit the",
           "TOML and run `make regen`; a test fails while any output is stale.", ""]
    m = c["meta"]
    out.append(f"Contract version {m['version_major']}.{m['version_minor']}.")
    out += ["", "## PCI identity", "", "| field | value |", "|---|---|"]
    for k, v in c["pci"].items():
        out.append(f"| {k} | `{v:#06x}` |")
    out += ["", "## BARs", "", "| BAR | name | size | meaning |", "|---|---|---|---|"]
    for b in c["bars"]:
        out.append(f"| {b['index']} | {b['name']} | `{b['size']:#x}` | {b['desc']} |")
    out += ["", "## BAR0 registers", "",
            "All registers are 32 bits wide and take 32-bit accesses only.", "",
            "| offset | name | access | reset | meaning |", "|---|---|---|---|---|"]
    for r in c["registers"]:
        reset = f"`{r['reset']:#x}`" if "reset" in r else "-"
        out.append(f"| `{r['offset']:#05x}` | {r['name']} | {r['access']} | {reset} | {r['desc']} |")
    for a in c["register_arrays"]:
        out.append(f"| `{a['offset']:#06x}` | {a['name']}[{a['count']}] | rw | 0 | {a['desc']} |")
    out += ["", "### Register fields", "", "| register | field | bits | meaning |", "|---|---|---|---|"]
    for r in c["registers"]:
        for f in r.get("fields", []):
            out.append(f"| {r['name']} | {f['name']} | {bits(f)} | {f['desc']} |")
    for b in c["bitfields"]:
        for f in b["fields"]:
            out.append(f"| {b['name']} | {f['name']} | {bits(f)} | {f['desc']} |")
    out += ["", "## Enumerations"]
    for e in c["enums"]:
        out += ["", f"### {e['name']}", "", e["desc"], "", "| value | name | meaning |", "|---|---|---|"]
        for v in e["values"]:
            out.append(f"| {v['value']} | {e['name']}_{v['name']} | {v['desc']} |")
    lk = c["link"]
    out += ["", "## The host link", "", lk["desc"], "",
            "| constant | value |", "|---|---|",
            f"| SOF | `{lk['sof']:#04x}` |", f"| BAUD | {lk['baud']} |", f"| MAX_PAYLOAD | {lk['max_payload']} |",
            f"| RESYNC_QUIET_MS | {lk['resync_quiet_ms']} |", f"| RESYNC_PROBES | {lk['resync_probes']} |",
            "", "Frame types are LINK_TYPE and refusal reasons LINK_NAK (Enumerations above).",
            "", "The usb transport finds the link on these USB UART chips (FTDI; UART mode, 8N1, no flow control; "
            "each bulk IN packet starts with the chip's two modem-status bytes, which are not link bytes):", "",
            "| chip | vendor | product | interface | use |", "|---|---|---|---|---|"]
    for u in c["link_usb"]:
        out.append(f"| {u['name']} | `{u['vendor']:#06x}` | `{u['product']:#06x}` | {u['interface']} | {u['desc']} |")
    if c.get("fpga_build"):
        out += ["", "### The card on an FPGA", "",
                "What `make bitstream BOARD=<board>` (rtl/fpga/flow.sh) measured for the card on each FPGA board, "
                "with the maximum clock nextpnr and icetime reported; the flow refuses a board whose clock is not met "
                "with at least 10% margin by both (the margin column: the lower of the two). "
                "Logic cells are what the device holds: nextpnr packs a LUT and a flip-flop into one cell when "
                "the LUT feeds only that flip-flop, any other flip-flop takes a cell of its own.", "",
                "| board | device | logic cells | LUTs | flip-flops | BRAM | SPRAM | DSP | max clock | board clock | margin | notes |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for f in c["fpga_build"]:
            out.append(f"| {f['board']} | {f['device']} | {f['logic_cells']} | {f['luts']} | {f['flip_flops']} | {f['bram']} | "
                       f"{f['spram']} | {f['dsp']} | {f['max_clock']} | {f['board_clock']} | {f['margin']} | {f['desc']} |")
    out += ["", "## Memory formats"]
    for fmt in c["formats"]:
        out += ["", f"### {fmt['name']} ({fmt['size']} bytes)", "", fmt["desc"], "",
                "| offset | bits | field | meaning |", "|---|---|---|---|"]
        for fld in fmt["fields"]:
            out.append(f"| {fld['offset']} | {fld['bits']} | {fld['name']} | {fld['desc']} |")
    t = c["tile"]
    out += ["", "## The tile", "", t["desc"], "", "### Tile address map", "",
            "| base | size | region | meaning |", "|---|---|---|---|"]
    for r in c["tile_regions"]:
        size = f"`{r['size']:#x}`" if isinstance(r["size"], int) else r["size"]
        out.append(f"| `{r['base']:#010x}` | {size} | {r['name']} | {r['desc']} |")
    out += ["", "### Tile CSRs", "", "| number | name | access | meaning |", "|---|---|---|---|"]
    for r in c["csrs"]:
        out.append(f"| `{r['number']:#05x}` | {r['name']} | {r['access']} | {r['desc']} |")
    cp = c["control_program"]
    out += ["", "## The per-tile control program", "", cp["desc"], "",
            "| header field | bits | meaning |", "|---|---|---|"]
    for f in cp["header_fields"]:
        out.append(f"| {f['name']} | {bits(f)} | {f['desc']} |")
    out += ["", "| opcode | name | IMM | operands | meaning |", "|---|---|---|---|---|"]
    for op in c["cp_ops"]:
        ops = ", ".join(op["operands"]) or "-"
        out.append(f"| {op['value']} | {op['name']} | {op.get('imm', '-')} | {ops} | {op['desc']} |")
    out.append("")
    return "\n".join(out)


def bits(f):
    hi = f["lsb"] + f["width"] - 1
    return f"{hi}:{f['lsb']}" if f["width"] > 1 else str(f["lsb"])


OUTPUTS = {
    ROOT / "contract" / "include" / "ipu_card" / "hw.h": render_c,
    ROOT / "rtl" / "pkg" / "ipu_card_pkg.sv": render_sv,
    ROOT / "docs" / "hardware.md": render_md,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if any output differs from what card.toml generates")
    args = ap.parse_args()
    contract = load()
    validate(contract)
    stale = []
    for path, render in OUTPUTS.items():
        text = render(contract)
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.relative_to(ROOT))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"generated {path.relative_to(ROOT)}")
    if stale:
        print("stale generated files (run `make regen` and commit them): " + ", ".join(map(str, stale)), file=sys.stderr)
        return 1
    if args.check:
        print(f"contract outputs are fresh ({len(OUTPUTS)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
