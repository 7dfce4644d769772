// The connection cap's sources (decision 574): an IPv4 address is one source, an IPv6 host's /64 is
// one (it may pick any address in it), IPv4-mapped IPv6 is its IPv4 address.
import { strict as assert } from 'node:assert';
import { isIP } from 'node:net';
import { connectionSource } from '../../../src/remote/connectionSource';

describe('remote/connection source: what counts as one source at the connection cap (decision 574)', () => {
  it('IPv4 addresses are sources of their own; IPv4-mapped IPv6 is the IPv4 address', () => {
    assert.equal(connectionSource('127.0.0.1'), '127.0.0.1');
    assert.equal(connectionSource('::ffff:192.168.1.20'), '192.168.1.20');
    assert.equal(connectionSource('::FFFF:10.0.0.1'), '10.0.0.1');
    assert.notEqual(connectionSource('192.168.1.20'), connectionSource('192.168.1.21'));
  });

  it('IPv6 addresses in one /64 are one source, however they are written; another /64 is another', () => {
    const one = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0db8:0001:0002:0:0:0:9', '2001:DB8:1:2::abcd%eth0', '2001:db8:1:2::1.2.3.4'];
    for (const a of one) assert.equal(connectionSource(a), '2001:db8:1:2::/64', a);
    assert.equal(connectionSource('2001:db8:1:3::1'), '2001:db8:1:3::/64');
    assert.equal(connectionSource('::1'), '0:0:0:0::/64');
    assert.equal(connectionSource('fe80::1%lo'), 'fe80:0:0:0::/64');
    assert.equal(connectionSource('1::'), '1:0:0:0::/64');
  });

  it('an address it cannot read is a source of its own, as written; none is the empty source', () => {
    assert.equal(connectionSource(undefined), '');
    assert.equal(connectionSource(''), '');
    for (const bad of ['1::2::3', '12345::1', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '::1.2.3.999', 'g::1']) {
      assert.equal(isIP(bad), 0, `${bad} is not an address`);
      assert.equal(connectionSource(bad), bad, bad);
    }
  });
});
