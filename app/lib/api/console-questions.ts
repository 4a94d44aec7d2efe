import {
  CONSOLE_ANSWERS_PATH,
  CONSOLE_QUESTIONS_PATH,
  type ConsoleQuestion,
  type ConsoleQuestionsPage,
  type QuestionTab,
} from "../../../contract/questions";
import type { Api } from "./client";

/** Questions and answers in the console: managers and owners moderate and answer. */

export function listQuestions(api: Api, tab: QuestionTab, page: number) {
  return api.get<ConsoleQuestionsPage>(CONSOLE_QUESTIONS_PATH, { query: { tab, page } });
}

/** Publishes a pending (or rejected) question. */
export function approveQuestion(api: Api, id: number) {
  return api.post<ConsoleQuestion>(`${CONSOLE_QUESTIONS_PATH}/${id}/approve`);
}

/** Rejects a pending question, or removes a published one, with the reason. */
export function rejectQuestion(api: Api, id: number, action: "reject" | "remove", reason: string) {
  return api.post<ConsoleQuestion>(`${CONSOLE_QUESTIONS_PATH}/${id}/${action}`, { reason });
}

/** Staff's answer: published at once, the asker told. */
export function answerAsStaff(api: Api, id: number, text: string) {
  return api.post<ConsoleQuestion>(`${CONSOLE_QUESTIONS_PATH}/${id}/answers`, { text });
}

/** Publishes a buyer's pending (or rejected) answer. */
export function approveAnswer(api: Api, id: number) {
  return api.post<ConsoleQuestion>(`${CONSOLE_ANSWERS_PATH}/${id}/approve`);
}

/** Rejects a buyer's pending answer, or removes a published one, with the reason. */
export function rejectAnswer(api: Api, id: number, action: "reject" | "remove", reason: string) {
  return api.post<ConsoleQuestion>(`${CONSOLE_ANSWERS_PATH}/${id}/${action}`, { reason });
}
