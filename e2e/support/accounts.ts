import * as OTPAuth from 'otpauth';

const STEP_SECONDS = 30;
const stepNow = () => Math.floor(Date.now() / 1000 / STEP_SECONDS);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A staff account whose TOTP secret we hold (read from the `otpauth://` URI
 * that `perkdesk create-admin` prints), as its owner's authenticator app would.
 *
 * The server accepts the codes of the previous, current and next 30-second
 * step, but each step only once per account (no replay). `nextCode()` hands
 * out a step the server has not seen yet: the current one, else the next one,
 * else it waits for the clock to move on. Never weaken the server for tests.
 */
export class Account {
  readonly totp: OTPAuth.TOTP;
  /** The highest step a code was handed out for (sign-in through the API or the screen alike). */
  private lastStep = -1;

  constructor(
    readonly email: string,
    public password: string,
    readonly firstName: string,
    readonly lastName: string,
    readonly otpauthUri: string,
  ) {
    const parsed = OTPAuth.URI.parse(otpauthUri);
    if (!(parsed instanceof OTPAuth.TOTP)) throw new Error(`not a TOTP URI: ${otpauthUri}`);
    this.totp = parsed;
  }

  get fullName(): string {
    return `${this.firstName} ${this.lastName}`;
  }

  private codeAt(step: number): string {
    return this.totp.generate({ timestamp: step * STEP_SECONDS * 1000 });
  }

  /** A code the server will accept once: the current step's, the next step's, or (after a wait) a later one. */
  async nextCode(): Promise<string> {
    let now = stepNow();
    if (this.lastStep >= now + 1) {
      // Both usable steps are spent: wait until the clock reaches the last used step,
      // so that the step after it falls inside the server's window.
      await sleep(this.lastStep * STEP_SECONDS * 1000 - Date.now() + 50);
      now = stepNow();
    }
    const step = Math.max(now, this.lastStep + 1);
    this.lastStep = step;
    return this.codeAt(step);
  }

  /** Six digits that match none of the steps the server could accept right now. */
  wrongCode(): string {
    const now = stepNow();
    const valid = new Set([now - 2, now - 1, now, now + 1, now + 2].map((step) => this.codeAt(step)));
    let candidate = 123456;
    while (valid.has(String(candidate).padStart(6, '0'))) candidate += 1;
    return String(candidate).padStart(6, '0');
  }
}
