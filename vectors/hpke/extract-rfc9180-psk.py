# Extracts the PSK-mode DHKEM(X25519) vectors of RFC 9180 Appendix A from
# draft-irtf-cfrg-hpke.md (cfrg/draft-irtf-cfrg-hpke, commit b1f7cb0).
import json, re, sys
lines = open(sys.argv[1]).read().split('\n')
blocks, cur, suite = [], None, None
for ln in lines:
    if ln.startswith('## '):
        suite, cur = ln[3:], None
        continue
    if ln.startswith('### '):
        cur = {'suite': suite, 'section': ln[4:], 'lines': []}
        blocks.append(cur)
        continue
    if cur is not None:
        cur['lines'].append(ln)
def parse_kv(ls):
    recs, rec, key = [], {}, None
    for l in ls:
        if l.startswith('~~~') or l.startswith('#') or not l.strip():
            if rec:
                recs.append(rec)
            rec, key = {}, None
            continue
        m = re.match(r'^([A-Za-z_ ]+):\s*(.*)$', l)
        if m:
            key = m.group(1)
            rec[key] = m.group(2).strip()
        else:
            rec[key] += l.strip()
    if rec:
        recs.append(rec)
    return recs
out = []
for b in blocks:
    if b['section'] != 'PSK Setup Information' or 'X25519' not in b['suite']:
        continue
    recs = parse_kv(b['lines'])
    setup = recs[0]
    v = {k: int(setup[k]) for k in ['mode', 'kem_id', 'kdf_id', 'aead_id']}
    v.update({k: setup[k] for k in ['info', 'ikmE', 'ikmR', 'skRm', 'pkRm', 'psk', 'psk_id', 'enc',
                                     'shared_secret', 'key', 'base_nonce', 'exporter_secret']})
    v['suite'] = b['suite']
    v['encryptions'] = [{'seq': int(r['sequence number']), 'aad': r['aad'], 'pt': r['pt'],
                         'nonce': r['nonce'], 'ct': r['ct']} for r in recs if 'sequence number' in r]
    v['exports'] = [{'exporter_context': r['exporter_context'], 'L': int(r['L']),
                     'exported_value': r['exported_value']} for r in recs if 'exporter_context' in r]
    out.append(v)
json.dump(out, sys.stdout, indent=1)
print()
