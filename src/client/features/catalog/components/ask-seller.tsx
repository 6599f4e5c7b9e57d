import { MessageForm } from '@client/components/ui/message-form';
import { call } from '@client/lib/api-client';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';

const ASK_TEXT = {
  title: 'Ask the seller',
  hint: 'Your question goes to the seller; the answer comes under Messages in your dashboard.',
  placeholder: 'Is it unlocked? Can we meet on Saturday?',
  signIn: 'Sign in to ask the seller a question',
};

/**
 * On a phone's page (issue 20): a signed-in buyer asks its seller a question and goes on to the
 * conversation; a visitor is asked to sign in first.
 */
export function AskSeller({ productId, signedIn }: { productId: string; signedIn: boolean }) {
  const navigate = useNavigate();
  const start = useMutation({
    mutationFn: (body: string) => call('startConversation', { body: { productId, body } }),
  });
  return (
    <section
      aria-labelledby="ask-heading"
      className="space-y-2 rounded-box border border-base-300 p-4"
    >
      <h2 id="ask-heading" className="text-lg font-semibold">
        {ASK_TEXT.title}
      </h2>
      {signedIn ? (
        <>
          <p className="text-sm text-current/80">{ASK_TEXT.hint}</p>
          <MessageForm
            placeholder={ASK_TEXT.placeholder}
            paid={false}
            pending={start.isPending}
            send={async (body) => {
              const answer = await start.mutateAsync(body);
              navigate(`/dashboard/messages/${answer.conversationId}`);
              return answer;
            }}
          />
        </>
      ) : (
        <Link
          to={`/signin?from=${encodeURIComponent(`/product/${productId}`)}`}
          className="link link-primary"
        >
          {ASK_TEXT.signIn}
        </Link>
      )}
    </section>
  );
}
