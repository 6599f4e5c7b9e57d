import { type CallInput, call } from '@client/lib/api-client';

/** Saves the buyer's search (issue 33); the saved searches page reads it under its own root. */
export const saveSearch = (body: CallInput<'saveSearch'>['body']) => call('saveSearch', { body });
