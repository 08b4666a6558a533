-- Wireshark / tshark dissector for the headers of the reps ns-3 module that Wireshark's own
-- RoCEv2 (InfiniBand) dissector does not know:
--   * the module's ACK/NACK header, carried after the base transport header (BTH) of an
--     RC Acknowledge packet (opcode 0x11) in the place of the InfiniBand AETH: type (ACK or
--     NACK), NACK reason, last-hop, duplicate and echoed-CE bits, the echoed entropy value, the trigger
--     PSN, the cumulative PSN (the next PSN the receiver expects) and the 64-bit SACK bitmap
--     (bit i: PSN cumulative + 1 + i was received);
--   * the bits the module gives the BTH's reserved byte: FECN, BECN, the trimmed mark (a
--     switch cut the payload) and the last-hop mark (it did so on its port toward the
--     destination host); a NACK of a trimmed packet carries the last-hop flag on to the sender;
--   * the path probe header of PROBE (opcode 0xC0) and PROBE_REPLY (0xC1) packets that the
--     MRC-style selector sends: the probed entropy value, the probe's sequence number and the
--     sender's timestamp in nanoseconds (a reply echoes all three);
--   * receiver credits (RCCC): the BTH's credit-request mark (C) and the credit request that
--     follows the BTH of such a data packet and makes up an RTS (opcode 0xC3): the cumulative
--     pull target in bytes and the speculative bit; the PULL (opcode 0xC2): the credit granted
--     in all, in bytes, and the slow-pull bit.
-- The manual's "Packet captures" section describes the ACK and probe headers, the UEC
-- transport chapter the credit headers.
--
-- Use:
--   tshark -X lua_script:utils/reps-wireshark.lua -r cap-reps-host0-leaf0.pcap -O reps
--   wireshark -X lua_script:utils/reps-wireshark.lua cap-reps-host0-leaf0.pcap
-- or copy the file into Wireshark's personal plugins folder (Help > About > Folders).
--
-- Fields (for display filters and tshark -e): reps.fecn, reps.becn, reps.trimmed,
-- reps.last_hop, reps.ack.type, reps.ack.reason, reps.ack.last_hop, reps.ack.duplicate,
-- reps.ack.ce, reps.ack.ev,
-- reps.ack.trigger_psn, reps.ack.cum_psn, reps.ack.sack, reps.probe.reply, reps.probe.ev,
-- reps.probe.seq, reps.probe.ts, reps.credit, reps.credit.target, reps.credit.speculative,
-- reps.rts, reps.pull.credit, reps.pull.slow. Example filter: reps.ack.type == 1 (every
-- NACK); reps.trimmed (every trimmed packet); reps.ack.last_hop (every NACK of a packet
-- trimmed at the last hop); reps.probe.ev (every probe and reply); reps.pull.credit (every
-- PULL); reps.rts (every RTS); reps.credit.speculative == 1 (every data packet sent on
-- speculative credit).

local reps = Proto("reps", "reps module RoCEv2 extensions")

local ACK_OPCODE = 0x11
local BTH_SIZE = 12
local ACK_SIZE = 20
local PROBE_OPCODE = 0xC0
local PROBE_REPLY_OPCODE = 0xC1
local PROBE_SIZE = 16
local PULL_OPCODE = 0xC2
local RTS_OPCODE = 0xC3
local CREDIT_SIZE = 8

local types = { [0] = "ACK", [1] = "NACK" }
local reasons = { [0] = "none", [1] = "trimmed", [2] = "sequence error" }

local f = reps.fields
f.fecn = ProtoField.bool("reps.fecn", "FECN", 8, nil, 0x80)
f.becn = ProtoField.bool("reps.becn", "BECN", 8, nil, 0x40)
f.trimmed = ProtoField.bool("reps.trimmed", "Trimmed by a switch", 8, nil, 0x01)
f.last_hop = ProtoField.bool("reps.last_hop", "Trimmed at the last hop", 8, nil, 0x02)
f.type = ProtoField.uint8("reps.ack.type", "Type", base.DEC, types)
f.reason = ProtoField.uint8("reps.ack.reason", "NACK reason", base.DEC, reasons, 0xF0)
f.ack_last_hop = ProtoField.bool("reps.ack.last_hop",
    "Trigger trimmed at the last hop (TRIMMED NACK)", 8, nil, 0x04)
f.duplicate = ProtoField.bool("reps.ack.duplicate", "Trigger was a duplicate", 8, nil, 0x02)
f.ce = ProtoField.bool("reps.ack.ce", "Echoed CE", 8, nil, 0x01)
f.ev = ProtoField.uint16("reps.ack.ev", "Echoed entropy value (UDP source port)", base.DEC)
f.trigger = ProtoField.uint24("reps.ack.trigger_psn", "Trigger PSN", base.DEC)
f.cum = ProtoField.uint24("reps.ack.cum_psn", "Cumulative PSN (next expected)", base.DEC)
f.sack = ProtoField.uint64("reps.ack.sack", "SACK bitmap (bit i: PSN cum + 1 + i)", base.HEX)
f.probe_reply = ProtoField.bool("reps.probe.reply", "Probe reply")
f.probe_ev = ProtoField.uint16("reps.probe.ev", "Probed entropy value", base.DEC)
f.probe_seq = ProtoField.uint32("reps.probe.seq", "Probe sequence number", base.DEC)
f.probe_ts = ProtoField.uint64("reps.probe.ts", "Probe timestamp (ns, sender's clock)", base.DEC)
f.credit = ProtoField.bool("reps.credit", "Credit request follows (receiver credits)", 8, nil,
    0x04)
f.credit_target = ProtoField.uint64("reps.credit.target", "Pull target (bytes, cumulative)",
    base.DEC)
f.credit_spec = ProtoField.bool("reps.credit.speculative", "Sent on speculative credit", 8, nil,
    0x80)
f.rts = ProtoField.bool("reps.rts", "Request to send (RTS)")
f.pull_credit = ProtoField.uint64("reps.pull.credit", "Credit granted (bytes, cumulative)",
    base.DEC)
f.pull_slow = ProtoField.bool("reps.pull.slow", "Slow pull (to an idle sender)", 8, nil, 0x80)

-- A credit request (8 bytes at a): S bit, 56-bit cumulative pull target.
local function add_credit_request(tvb, pinfo, tree, a, rts)
    local t = tree:add(reps, tvb:range(a, CREDIT_SIZE), "reps credit request")
    if rts then
        t:add(f.rts, true)
    end
    t:add(f.credit_spec, tvb:range(a, 1))
    local target = tvb:range(a + 1, 7):uint64()
    t:add(f.credit_target, tvb:range(a, CREDIT_SIZE), target)
    pinfo.cols.info:append(string.format(" [reps %s target=%s%s]", rts and "RTS" or "credit",
        tostring(target), tvb:range(a, 1):bitfield(0, 1) == 1 and " speculative" or ""))
end

-- The BTH as Wireshark's InfiniBand dissector found it (one per RoCEv2 packet).
local bth_field = Field.new("infiniband.bth")
local opcode_field = Field.new("infiniband.bth.opcode")

function reps.dissector(tvb, pinfo, tree)
    local bths = { bth_field() }
    local opcodes = { opcode_field() }
    for i, bth in ipairs(bths) do
        local off = bth.offset
        if off + BTH_SIZE > tvb:len() then
            return
        end
        local sub = tree:add(reps, tvb:range(off, BTH_SIZE), "reps BTH bits")
        local resv = tvb:range(off + 4, 1)
        sub:add(f.fecn, resv)
        sub:add(f.becn, resv)
        sub:add(f.trimmed, resv)
        sub:add(f.credit, resv)
        if resv:bitfield(7, 1) == 1 then
            sub:add(f.last_hop, resv)
            pinfo.cols.info:append(resv:bitfield(6, 1) == 1 and " [trimmed last-hop]"
                or " [trimmed]")
        end
        local opcode = opcodes[i] and opcodes[i].value
        local body = off + BTH_SIZE
        if opcode ~= nil and opcode <= 0x04 and resv:bitfield(5, 1) == 1
            and body + CREDIT_SIZE <= tvb:len() then
            -- A SEND of a queue pair on receiver credits (trimmed ones keep it too).
            add_credit_request(tvb, pinfo, tree, body, false)
        elseif opcode == RTS_OPCODE and body + CREDIT_SIZE <= tvb:len() then
            add_credit_request(tvb, pinfo, tree, body, true)
        elseif opcode == PULL_OPCODE and body + CREDIT_SIZE <= tvb:len() then
            local t = tree:add(reps, tvb:range(body, CREDIT_SIZE), "reps PULL")
            t:add(f.pull_slow, tvb:range(body, 1))
            local credit = tvb:range(body + 1, 7):uint64()
            t:add(f.pull_credit, tvb:range(body, CREDIT_SIZE), credit)
            pinfo.cols.info:append(string.format(" [reps PULL credit=%s%s]", tostring(credit),
                tvb:range(body, 1):bitfield(0, 1) == 1 and " slow" or ""))
        elseif opcode == ACK_OPCODE and off + BTH_SIZE + ACK_SIZE <= tvb:len() then
            local a = off + BTH_SIZE
            local t = tree:add(reps, tvb:range(a, ACK_SIZE), "reps ACK/NACK header")
            local kind = tvb:range(a, 1):uint()
            t:add(f.type, tvb:range(a, 1))
            local flags = tvb:range(a + 1, 1)
            t:add(f.reason, flags)
            -- The last-hop bit means something in a TRIMMED NACK only (reserved elsewhere).
            local trimmedNack = kind == 1 and flags:bitfield(0, 4) == 1
            local lastHop = trimmedNack and flags:bitfield(5, 1) == 1
            if trimmedNack then
                t:add(f.ack_last_hop, flags)
            end
            t:add(f.duplicate, flags)
            t:add(f.ce, flags)
            t:add(f.ev, tvb:range(a + 2, 2))
            t:add(f.trigger, tvb:range(a + 5, 3))
            t:add(f.cum, tvb:range(a + 9, 3))
            t:add(f.sack, tvb:range(a + 12, 8))
            pinfo.cols.info:append(string.format(" [reps %s psn=%d cum=%d ev=%d%s%s]",
                types[kind] or "?", tvb:range(a + 5, 3):uint(), tvb:range(a + 9, 3):uint(),
                tvb:range(a + 2, 2):uint(), flags:bitfield(7, 1) == 1 and " CE" or "",
                lastHop and " last-hop" or ""))
        elseif (opcode == PROBE_OPCODE or opcode == PROBE_REPLY_OPCODE)
            and off + BTH_SIZE + PROBE_SIZE <= tvb:len() then
            local a = off + BTH_SIZE
            local t = tree:add(reps, tvb:range(a, PROBE_SIZE), "reps path probe header")
            local reply = opcode == PROBE_REPLY_OPCODE
            t:add(f.probe_reply, reply)
            t:add(f.probe_ev, tvb:range(a, 2))
            t:add(f.probe_seq, tvb:range(a + 4, 4))
            t:add(f.probe_ts, tvb:range(a + 8, 8))
            pinfo.cols.info:append(string.format(" [reps %s ev=%d seq=%d]",
                reply and "PROBE-REPLY" or "PROBE", tvb:range(a, 2):uint(),
                tvb:range(a + 4, 4):uint()))
        end
    end
end

-- A post-dissector runs after Wireshark's own dissectors; asking for all fields makes the
-- InfiniBand fields available to it in tshark too.
register_postdissector(reps, true)
