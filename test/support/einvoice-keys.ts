import { secp256k1 } from "@noble/curves/secp256k1.js";
import { base64Of } from "../../worker/backend/services/einvoicing/csr";
import { AsnConvert } from "@peculiar/asn1-schema";
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  Certificate,
  Name,
  RelativeDistinguishedName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from "@peculiar/asn1-x509";

const ECDSA_SHA256 = "1.2.840.10045.4.3.2";
const rdn = (type: string, value: string) =>
  new RelativeDistinguishedName([
    new AttributeTypeAndValue({ type, value: new AttributeValue({ printableString: value }) }),
  ]);

/** A secp256k1 key and a certificate for it signed by a throwaway CA, like the ones ZATCA issues. */
export async function standInCertificate(): Promise<{ privateKey: Uint8Array; certificate: string }> {
  const privateKey = secp256k1.utils.randomSecretKey();
  const ca = secp256k1.utils.randomSecretKey();
  const spki = new SubjectPublicKeyInfo({
    algorithm: new AlgorithmIdentifier({
      algorithm: "1.2.840.10045.2.1",
      // DER of the named curve secp256k1 (1.3.132.0.10).
      parameters: new Uint8Array([0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a]).buffer,
    }),
    subjectPublicKey: secp256k1.getPublicKey(privateKey, false).slice().buffer,
  });
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: new Uint8Array([0x11, 0x22, 0x33, 0x44]).buffer,
    signature: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }),
    issuer: new Name([rdn("0.9.2342.19200300.100.1.25", "local"), rdn("2.5.4.3", "STANDIN-CA")]),
    validity: new Validity({ notBefore: new Date("2026-01-01T00:00:00Z"), notAfter: new Date("2031-01-01T00:00:00Z") }),
    subject: new Name([rdn("2.5.4.6", "SA"), rdn("2.5.4.3", "EGS1-886431145")]),
    subjectPublicKeyInfo: spki,
  });
  const signature = secp256k1.sign(new Uint8Array(AsnConvert.serialize(tbs)), ca, { prehash: true, format: "der" });
  const cert = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }),
    signatureValue: signature.slice().buffer,
  });
  return { privateKey, certificate: base64Of(new Uint8Array(AsnConvert.serialize(cert))) };
}
