/** The TOTP secret's otpauth URI as a QR code, for an authenticator app's camera. */
import { generate } from "lean-qr";
import { useMemo } from "preact/hooks";

export function QrCode({ text, label }: { text: string; label: string }) {
  const src = useMemo(() => generate(text).toDataURL({ scale: 5, padX: 4, padY: 4 }), [text]);
  return <img class="qr" src={src} alt={label} width={200} height={200} />;
}
