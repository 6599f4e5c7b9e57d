/** A toast that says what happened and offers the next step as a link inside the app. */
import { toast } from '@client/lib/toast';

export function toastWithLink(
  kind: 'success' | 'error',
  message: string,
  link: { text: string; to: string },
  navigate: (to: string) => void,
): void {
  toast[kind](
    (t) => (
      <span>
        <span>{message}</span>{' '}
        <a
          href={link.to}
          className="link font-semibold"
          onClick={(event) => {
            event.preventDefault();
            toast.dismiss(t.id);
            navigate(link.to);
          }}
        >
          {link.text}
        </a>
      </span>
    ),
    // Long enough to reach the link.
    { duration: 8000 },
  );
}
