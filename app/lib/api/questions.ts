import {
  QUESTIONS_PATHS,
  type QuestionEligibility,
  type QuestionsPage,
  type SubmittedText,
} from "../../../contract/questions";
import type { Api } from "./client";

/** Questions and answers on a product's page (contract/questions.ts). */

/** GET one page of a product's published questions, newest first. */
export function getProductQuestions(api: Api, slug: string, page = 1, signal?: AbortSignal) {
  return api.get<QuestionsPage>(QUESTIONS_PATHS.list(slug), { query: { page }, signal });
}

/** GET whether the signed-in shopper may answer the product's questions. */
export function getQuestionEligibility(api: Api, slug: string, signal?: AbortSignal) {
  return api.get<QuestionEligibility>(QUESTIONS_PATHS.eligibility, { query: { product: slug }, signal });
}

/** POST a signed-in shopper's question: pending until staff answer or approve it. */
export function askQuestion(api: Api, slug: string, text: string) {
  return api.post<SubmittedText>(QUESTIONS_PATHS.ask, { product: slug, text });
}

/** POST a buyer's answer: pending until staff approve it. */
export function answerQuestion(api: Api, id: number, text: string) {
  return api.post<SubmittedText>(QUESTIONS_PATHS.answer(id), { text });
}
