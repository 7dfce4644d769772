// A valid 1×1 RGBA PNG (67 bytes): the smallest real image the file-transfer and attachment
// tests send, store and fetch (§4.5.1, §6.1.1).
export const ONE_PIXEL_PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');
